// Who is calling /mcp: a capability token, or a team API key exchanged in place as POST /v1/tokens would.
import type { ApiKeyIdentity } from "../../auth/api-keys";
import { MAX_TOKEN_LIFETIME_S, type Principal } from "../../auth/tokens";
import type { HttpNeeds } from "../../http/types";
import { err, ok, type Result } from "../../lib/result";

const JWT_BEARER = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)\s*$/i;
const KEY_BEARER = /^Bearer\s+(wdn_\S+)\s*$/i;

/**
 * The principal a capability token minted from this key right now would carry: the key's team, subject, scopes, run
 * and creator (`key_by`: its holder never approves what the key's caller opens), ≤ 900 s and never past the key's own
 * expiry (the rules of POST /v1/tokens with no narrowing asked).
 */
export function principalFromKey(key: ApiKeyIdentity, now: number): Principal {
  const expiresAtMs = Math.min(now + MAX_TOKEN_LIFETIME_S * 1000, key.expiresAt ?? Number.POSITIVE_INFINITY);
  return {
    teamId: key.teamId,
    scopes: new Set(key.scopes),
    subject: key.subject,
    ...(key.runId === undefined ? {} : { runId: key.runId }),
    keyId: key.id,
    keyIssuer: key.createdBy,
    expiresAtMs,
  };
}

/** The caller of one /mcp request, or why it is refused (in words the caller may read; never a secret). */
export async function authenticateMcp(
  deps: Pick<HttpNeeds, "verifyToken" | "apiKeys">,
  header: string | undefined,
  now: number,
  defer: (work: Promise<unknown>) => void,
): Promise<Result<Principal, string>> {
  if (!header) return err("missing bearer token (Authorization: Bearer <capability token or API key>)");
  const jwt = JWT_BEARER.exec(header);
  if (jwt) {
    const r = await deps.verifyToken(jwt[1] as string, now);
    if (!r.ok) return r;
    if (r.value.keyId && (await deps.apiKeys.isRevoked(r.value.keyId, now))) return err("token's API key was revoked");
    return r;
  }
  const key = KEY_BEARER.exec(header);
  if (!key) return err("malformed bearer token");
  const r = await deps.apiKeys.verify(key[1] as string, now);
  if (!r.ok) return err(r.error);
  defer(deps.apiKeys.recordUse(r.value.id, now));
  return ok(principalFromKey(r.value, now));
}
