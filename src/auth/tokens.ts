// Capability tokens: HS256 JWT verification with jose (alg pinned, iss/aud, lifetime ≤ 900 s, secret by kid), cached.
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";
import { err, ok, type Result } from "../lib/result.ts";
import { MAX_TOKEN_LIFETIME_S, SCOPES, type Scope, TEAM_ID_PATTERN } from "./scopes.ts";

export { MAX_TOKEN_LIFETIME_S, SCOPES, type Scope, TEAM_ID_PATTERN } from "./scopes.ts";

export const CLOCK_TOLERANCE_S = 30;

/** Why jose refused a token, in words the caller may read (which claim, never a stack or a key). */
export function joseRefusal(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return "token expired";
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `token claim "${e.claim}" is invalid`;
  if (e instanceof joseErrors.JWKSTimeout) return "identity provider keys unavailable (timeout)";
  return "token is malformed or its signature does not verify";
}
const idClaim = z.string().min(1).max(128);

/** What is wrong with a token's team id and scopes, naming the bad value; null when both are valid. */
export function claimProblem(teamId: unknown, scopes: unknown): string | null {
  if (typeof teamId !== "string" || !TEAM_ID_PATTERN.test(teamId) || teamId === "." || teamId === "..")
    return `team_id ${JSON.stringify(teamId)} is not 1-128 characters of A-Z a-z 0-9 _ . : @ + -`;
  if (!Array.isArray(scopes)) return "scopes must be an array";
  const unknown = scopes.filter((s) => !(SCOPES as readonly unknown[]).includes(s));
  if (unknown.length > 0)
    return `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(", ")} (known: ${SCOPES.join(", ")})`;
  return null;
}

const Claims = z.object({
  iat: z.number(),
  exp: z.number(),
  team_id: idClaim,
  scopes: z.array(z.enum(SCOPES)),
  sub: idClaim.optional(),
  run_id: idClaim.optional(),
  task_id: idClaim.optional(),
  persona_id: idClaim.optional(),
  /** set on tokens minted by POST /v1/tokens: the API key they came from (revocation stops them) */
  key_id: idClaim.optional(),
  /** set with key_id: the admin who created that key, so a key never makes its creator a second person */
  key_by: idClaim.optional(),
});

export type Principal = {
  teamId: string;
  scopes: ReadonlySet<Scope>;
  /** the caller's identity: used as approver and actor; falls back to "team:<team_id>" */
  subject: string;
  runId?: string;
  taskId?: string;
  personaId?: string;
  /** the API key this token was minted from (POST /v1/tokens) */
  keyId?: string;
  /** the admin who created the API key this token came from (two-person rule: the same person as that admin) */
  keyIssuer?: string;
  expiresAtMs: number;
};

export type TokenVerifier = (token: string, nowMs: number) => Promise<Result<Principal, string>>;

/** An HS256 secret with its key id; during a rotation two are active (docs/security.md "Key rotation"). */
export type SigningKey = { kid: string; secret: string };

export type VerifierOptions = {
  maxCached?: number;
  /** verifies tokens signed with another algorithm (an external identity provider's RS256/ES256), when configured */
  external?: TokenVerifier;
};

/** Checks an HS256 token's signature, issuer, audience, times and claims with `key`: the principal it names. */
async function verifyHs256(token: string, key: Uint8Array, nowMs: number): Promise<Result<Principal, string>> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: "warden",
      audience: "warden",
      requiredClaims: ["exp", "iat"],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(nowMs),
    }));
  } catch (e) {
    return err(joseRefusal(e));
  }
  const p = payload as { team_id?: unknown; scopes?: unknown };
  const problem = claimProblem(p.team_id, p.scopes);
  if (problem) return err(`token refused: ${problem}`);
  const claims = Claims.safeParse(payload);
  if (!claims.success) return err("token lacks team_id or valid scopes");
  const { iat, exp } = claims.data;
  if (exp - iat > MAX_TOKEN_LIFETIME_S) return err(`token lifetime exceeds ${MAX_TOKEN_LIFETIME_S} s`);
  if (iat * 1000 > nowMs + CLOCK_TOLERANCE_S * 1000) return err("token issued in the future");
  const principal: Principal = {
    teamId: claims.data.team_id,
    scopes: new Set(claims.data.scopes),
    subject: claims.data.sub ?? `team:${claims.data.team_id}`,
    runId: claims.data.run_id,
    taskId: claims.data.task_id,
    personaId: claims.data.persona_id,
    keyId: claims.data.key_id,
    keyIssuer: claims.data.key_by,
    expiresAtMs: exp * 1000,
  };
  return ok(principal);
}

/**
 * Builds a verifier: HS256 tokens are checked against the secret their `kid` names (a token without `kid` against the
 * first, current, secret); other algorithms go to `external` or are refused. Verified tokens are cached until expiry.
 */
export function createTokenVerifier(keys: string | SigningKey[], opts: VerifierOptions = {}): TokenVerifier {
  const list: SigningKey[] = typeof keys === "string" ? [{ kid: "", secret: keys }] : keys;
  if (list.length === 0) throw new Error("createTokenVerifier needs at least one secret");
  const secrets = new Map(list.map((k) => [k.kid, new TextEncoder().encode(k.secret)]));
  const current = secrets.get((list[0] as SigningKey).kid) as Uint8Array;
  const maxCached = opts.maxCached ?? 10_000;
  const cache = new Map<string, Principal>();
  return async (token, nowMs) => {
    const cached = cache.get(token);
    if (cached) {
      if (cached.expiresAtMs + CLOCK_TOLERANCE_S * 1000 > nowMs) return ok(cached);
      cache.delete(token);
    }
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return err("token is malformed or its signature does not verify");
    }
    if (header.alg !== "HS256") {
      if (opts.external && (header.alg === "RS256" || header.alg === "ES256")) return opts.external(token, nowMs);
      return err("token is malformed or its signature does not verify");
    }
    const key = header.kid === undefined ? current : secrets.get(header.kid);
    if (!key) return err("token names an unknown key id");
    const verified = await verifyHs256(token, key, nowMs);
    if (!verified.ok) return verified;
    const principal = verified.value;
    if (cache.size >= maxCached) cache.clear();
    cache.set(token, principal);
    return ok(principal);
  };
}
