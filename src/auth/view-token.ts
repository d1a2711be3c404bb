// View tokens: HMAC-SHA256 signed, read-only links to one run's trace, one team's overview or one artifact (≤ 15 min; pure).
import { err, ok, type Result } from "../lib/result";

/** what a view token opens: one run of a team (its trace and artifacts), one team's overview, or one artifact */
export type ViewScope =
  | { kind: "run"; team_id: string; run_id: string }
  | { kind: "team"; team_id: string }
  | { kind: "artifact"; team_id: string; run_id: string; artifact_id: string };
export type VerifiedView = ViewScope & { expires_at_ms: number };

/** the longest a view token lives */
export const MAX_VIEW_TTL_MS = 15 * 60 * 1000;
const MAX_TOKEN_CHARS = 2048;
const isId = (v: unknown): v is string => typeof v === "string" && v.length >= 1 && v.length <= 128;
const encoder = new TextEncoder();

export function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s)
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/(?<!=)=+$/, "");
}

export function fromB64url(s: string): Uint8Array | null {
  if (!/^[\w-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function hmacKey(raw: Uint8Array, usages: ("sign" | "verify")[]): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, usages);
}

const keys = new Map<string, Promise<CryptoKey>>();

/** An HMAC key for one purpose: HMAC(secret, label), so what one purpose signs never verifies for another. */
export function derivedHmacKey(secret: string, label: string): Promise<CryptoKey> {
  const id = `${label}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      const master = await hmacKey(encoder.encode(secret), ["sign"]);
      const derived = new Uint8Array(await crypto.subtle.sign("HMAC", master, encoder.encode(label)));
      return hmacKey(derived, ["sign", "verify"]);
    })();
    if (keys.size > 16) keys.clear();
    keys.set(id, key);
  }
  return key;
}

/** The view-token key: HMAC(WARDEN_JWT_SECRET, "view-token"), so a view token is never a valid API token and vice versa. */
export const viewKey = (secret: string): Promise<CryptoKey> => derivedHmacKey(secret, "view-token");

type Payload = { v: 1; k: "run" | "team" | "artifact"; t: string; r?: string; a?: string; iat: number; exp: number };

/** Mints a view token for `scope`, valid from `nowMs` for `ttlMs` (at most 15 minutes). */
export async function mintViewToken(
  secret: string,
  scope: ViewScope,
  nowMs: number,
  ttlMs = MAX_VIEW_TTL_MS,
): Promise<{ token: string; expires_at_ms: number }> {
  if (!(ttlMs > 0 && ttlMs <= MAX_VIEW_TTL_MS))
    throw new RangeError(`view token ttl must be in (0, ${MAX_VIEW_TTL_MS}]`);
  const ids = [scope.team_id];
  if (scope.kind !== "team") ids.push(scope.run_id);
  if (scope.kind === "artifact") ids.push(scope.artifact_id);
  if (!ids.every(isId)) throw new RangeError("view token ids must be 1-128 characters");
  const exp = nowMs + ttlMs;
  const payload: Payload = { v: 1, k: scope.kind, t: scope.team_id, iat: nowMs, exp };
  if (scope.kind !== "team") payload.r = scope.run_id;
  if (scope.kind === "artifact") payload.a = scope.artifact_id;
  const body = b64url(encoder.encode(JSON.stringify(payload)));
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await viewKey(secret), encoder.encode(body)));
  return { token: `${body}.${b64url(sig)}`, expires_at_ms: exp };
}

/** Verifies a view token's signature, lifetime and shape; the caller still checks it opens what was asked for. */
export async function verifyViewToken(
  secret: string,
  token: string,
  nowMs: number,
): Promise<Result<VerifiedView, string>> {
  if (token.length === 0 || token.length > MAX_TOKEN_CHARS) return err("view token is missing or too long");
  const parts = token.split(".");
  if (parts.length !== 2) return err("view token is malformed");
  const [body, sigText] = parts as [string, string];
  const sig = fromB64url(sigText);
  const raw = fromB64url(body);
  if (!sig || !raw || sig.length !== 32) return err("view token is malformed");
  const valid = await crypto.subtle.verify("HMAC", await viewKey(secret), sig, encoder.encode(body));
  if (!valid) return err("view token signature does not verify");
  let p: Partial<Payload>;
  try {
    p = JSON.parse(new TextDecoder().decode(raw)) as Partial<Payload>;
  } catch {
    return err("view token is malformed");
  }
  if (p === null || typeof p !== "object" || p.v !== 1) return err("view token version is unknown");
  if (typeof p.iat !== "number" || typeof p.exp !== "number" || !isId(p.t)) {
    return err("view token is malformed");
  }
  if (p.exp - p.iat > MAX_VIEW_TTL_MS || p.exp <= p.iat) return err("view token lifetime is invalid");
  if (nowMs >= p.exp) return err("view token expired");
  if (p.iat > nowMs + 30_000) return err("view token issued in the future");
  if (p.k === "team" && p.r === undefined) return ok({ kind: "team", team_id: p.t, expires_at_ms: p.exp });
  if (p.k === "run" && isId(p.r) && p.a === undefined) {
    return ok({ kind: "run", team_id: p.t, run_id: p.r, expires_at_ms: p.exp });
  }
  if (p.k === "artifact" && isId(p.r) && isId(p.a)) {
    return ok({ kind: "artifact", team_id: p.t, run_id: p.r, artifact_id: p.a, expires_at_ms: p.exp });
  }
  return err("view token kind is invalid");
}

/** Whether a verified token opens exactly this view (same kind, same team, same run, same artifact). */
export function opens(view: VerifiedView, wanted: ViewScope): boolean {
  if (view.kind !== wanted.kind || view.team_id !== wanted.team_id) return false;
  if (view.kind === "team") return true;
  if (wanted.kind === "team" || view.run_id !== wanted.run_id) return false;
  return view.kind === "run" || (wanted.kind === "artifact" && view.artifact_id === wanted.artifact_id);
}
