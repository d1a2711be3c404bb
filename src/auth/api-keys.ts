// Team API keys: format (public prefix + secret), SHA-256 storage, verification, and the revocation check for tokens.

import { err, ok, type Result } from "../lib/result";
import type { ApiKeyStore } from "../ports/api-key-store";
import { SCOPES, type Scope } from "./tokens";

/** `wk_<12 hex: public lookup prefix>_<43 base64url: 256-bit secret>` */
export const API_KEY_PATTERN = /^wk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/**
 * How long an isolate trusts "not revoked" for a key before asking D1 again. A revoked key's tokens stop within
 * min(their remaining lifetime, REVOCATION_RECHECK_MS) in every isolate, and at once in the isolate that revoked it.
 */
export const REVOCATION_RECHECK_MS = 30_000;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export function generateApiKey(): { prefix: string; key: string } {
  const prefix = hex(crypto.getRandomValues(new Uint8Array(6)));
  return { prefix, key: `wk_${prefix}_${b64url(crypto.getRandomValues(new Uint8Array(32)))}` };
}

/** A 256-bit random secret needs no slow hash: SHA-256 is preimage-resistant at that entropy. */
export async function hashApiKey(key: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))));
}

function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

export type ApiKeyIdentity = { id: string; teamId: string; subject: string; scopes: Scope[]; runId?: string };

export type ApiKeyAuth = {
  verify(key: string, now: number): Promise<Result<ApiKeyIdentity, string>>;
  /** For tokens minted from a key: true once the key is revoked (or gone), within REVOCATION_RECHECK_MS. */
  isRevoked(keyId: string, now: number): Promise<boolean>;
  /** This isolate revoked the key: its tokens stop here at once. */
  markRevoked(keyId: string): void;
};

export function createApiKeyAuth(
  store: ApiKeyStore,
  recheckMs = REVOCATION_RECHECK_MS,
  maxCached = 10_000,
): ApiKeyAuth {
  const revocations = new Map<string, { revoked: boolean; until: number }>();
  const remember = (keyId: string, revoked: boolean, until: number) => {
    if (revocations.size >= maxCached) revocations.clear();
    revocations.set(keyId, { revoked, until });
  };
  return {
    async verify(key, now) {
      const m = API_KEY_PATTERN.exec(key);
      if (!m) return err("malformed API key");
      const row = await store.byPrefix(m[1] as string);
      if (!row || !sameHex(row.secretHash, await hashApiKey(key))) return err("unknown API key");
      if (row.revokedAt !== null) {
        remember(row.id, true, Number.POSITIVE_INFINITY);
        return err("API key revoked");
      }
      remember(row.id, false, now + recheckMs);
      const scopes = row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
      return ok({ id: row.id, teamId: row.teamId, subject: row.subject, scopes, runId: row.runId ?? undefined });
    },
    async isRevoked(keyId, now) {
      const hit = revocations.get(keyId);
      if (hit && hit.until > now) return hit.revoked;
      const row = await store.byId(keyId);
      const revoked = !row || row.revokedAt !== null;
      remember(keyId, revoked, revoked ? Number.POSITIVE_INFINITY : now + recheckMs);
      return revoked;
    },
    markRevoked(keyId) {
      remember(keyId, true, Number.POSITIVE_INFINITY);
    },
  };
}
