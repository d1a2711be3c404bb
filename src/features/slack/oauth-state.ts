// The OAuth install's `state` (pure but for WebCrypto, `now` passed in): HMAC-signed, carries the Warden team and the
// admin who started the install, expires after STATE_TTL_MS; single use is enforced by the callback (its nonce).
import { b64url, derivedHmacKey, fromB64url } from "../../auth/view-token";
import { err, ok, type Result } from "../../lib/result";

/** How long an install link stays usable: long enough to click through Slack's consent page. */
export const STATE_TTL_MS = 10 * 60_000;
const MAX_STATE_CHARS = 1024;
const encoder = new TextEncoder();

export type InstallState = {
  /** the Warden team the workspace will belong to */
  team_id: string;
  /** the policy:admin subject who started the install (audited as the installer) */
  subject: string;
  /** random; the callback records it so the state works once */
  nonce: string;
  expires_at: number;
};

/** HMAC(WARDEN_JWT_SECRET, "slack-oauth-state"): a state is never a valid API or view token, nor the other way round. */
const stateKey = (secret: string) => derivedHmacKey(secret, "slack-oauth-state");

type Payload = { v: 1; t: string; s: string; n: string; e: number };

export async function signState(secret: string, s: InstallState): Promise<string> {
  const payload: Payload = { v: 1, t: s.team_id, s: s.subject, n: s.nonce, e: s.expires_at };
  const body = b64url(encoder.encode(JSON.stringify(payload)));
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await stateKey(secret), encoder.encode(body)));
  return `${body}.${b64url(sig)}`;
}

const isText = (v: unknown, max: number): v is string => typeof v === "string" && v.length >= 1 && v.length <= max;

/** The state's signature (constant-time, WebCrypto), shape and expiry; the reason names which check failed. */
export async function verifyState(secret: string, raw: string, now: number): Promise<Result<InstallState, string>> {
  if (raw.length === 0 || raw.length > MAX_STATE_CHARS) return err("state is missing or too long");
  const parts = raw.split(".");
  const body = parts[0] ?? "";
  const sig = parts.length === 2 ? fromB64url(parts[1] ?? "") : null;
  const bytes = fromB64url(body);
  // canonical encodings only: otherwise a state's unused trailing bits could change and it would still verify
  if (!sig || !bytes || sig.length !== 32 || b64url(sig) !== parts[1] || b64url(bytes) !== body)
    return err("state is malformed");
  if (!(await crypto.subtle.verify("HMAC", await stateKey(secret), sig, encoder.encode(body))))
    return err("state signature does not verify");
  let p: Partial<Payload>;
  try {
    p = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Payload>;
  } catch {
    return err("state is malformed");
  }
  if (p?.v !== 1 || !isText(p.t, 128) || !isText(p.s, 256) || !isText(p.n, 128) || typeof p.e !== "number")
    return err("state is malformed");
  if (now >= p.e) return err("state expired: start the install again");
  return ok({ team_id: p.t, subject: p.s, nonce: p.n, expires_at: p.e });
}

/** Slack's authorize URL for the bot scopes, back to `redirectUri` with the signed state (every value URL-encoded). */
export function authorizeUrl(
  base: string,
  p: { client_id: string; scopes: readonly string[]; redirect_uri: string; state: string },
): string {
  const url = new URL(base);
  url.searchParams.set("client_id", p.client_id);
  url.searchParams.set("scope", p.scopes.join(","));
  url.searchParams.set("redirect_uri", p.redirect_uri);
  url.searchParams.set("state", p.state);
  return url.toString();
}
