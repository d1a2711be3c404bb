// Slack request signing (v0): HMAC-SHA256 over `v0:<timestamp>:<raw body>`, constant-time compare, ±300 s window.
import { toHex } from "../../lib/digest";

/** Slack refuses requests older than five minutes; so do we, in both directions. */
export const SLACK_MAX_SKEW_S = 300;

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: "missing_headers" | "bad_timestamp" | "stale" | "bad_signature" | "no_secret" };

const enc = new TextEncoder();

/** `v0=<hex>` for a timestamp and raw body. */
export async function slackSignature(secret: string, timestamp: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return `v0=${toHex(await crypto.subtle.sign("HMAC", key, enc.encode(`v0:${timestamp}:${body}`)))}`;
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = enc.encode(a);
  const y = enc.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0;
}

/**
 * Checks one request's signature headers against its raw body under any of the active secrets (two during a signing
 * secret rotation: the current and the previous); `nowMs` is passed in (no wall clock here).
 */
export async function verifySlackRequest(input: {
  secrets: readonly (string | undefined)[];
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  body: string;
  nowMs: number;
}): Promise<SignatureCheck> {
  const secrets = input.secrets.filter((s): s is string => !!s);
  if (secrets.length === 0) return { ok: false, reason: "no_secret" };
  if (!input.timestamp || !input.signature) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(input.timestamp)) return { ok: false, reason: "bad_timestamp" };
  const skew = Math.abs(Math.floor(input.nowMs / 1000) - Number(input.timestamp));
  if (skew > SLACK_MAX_SKEW_S) return { ok: false, reason: "stale" };
  let match = false;
  // every secret is tried (no early exit), so timing does not tell which one matched
  for (const secret of secrets)
    match = timingSafeEqual(await slackSignature(secret, input.timestamp, input.body), input.signature) || match;
  return match ? { ok: true } : { ok: false, reason: "bad_signature" };
}
