// Team API keys: format (public prefix + secret), SHA-256 storage, verification, and the revocation check for tokens.

import { sha256Hex } from "../lib/digest";
import { log } from "../lib/log";

import { err, ok, type Result } from "../lib/result";
import type { ApiKeyRow, ApiKeyStore } from "../ports/api-key-store";
import { parseApiKey } from "./key-format";
import { SCOPES, type Scope } from "./tokens";

export { generateApiKey } from "./key-format";

/**
 * How long an isolate trusts "not revoked" for a key before asking D1 again. A revoked key's tokens stop within
 * min(their remaining lifetime, REVOCATION_RECHECK_MS) in every isolate, and at once in the isolate that revoked it.
 * The documented bound (docs/security.md) is N = 30 s; issue 16 asks for N ≤ 60 s.
 */
export const REVOCATION_RECHECK_MS = 30_000;

/** `last_used_at` is written at most once per key per isolate in this interval, so verifying stays one read. */
export const LAST_USED_EVERY_MS = 60_000;

/** How long ahead of its `expires_at` a key is flagged (`expires_soon` in GET /v1/keys, a warning on POST /v1/tokens). */
export const EXPIRY_WARNING_MS = 7 * 24 * 3600 * 1000;

/** The latest `expires_at` a key may be given at creation: one year ahead (keys without one never expire). */
export const MAX_KEY_LIFETIME_MS = 365 * 24 * 3600 * 1000;

/** A 256-bit random secret needs no slow hash: SHA-256 is preimage-resistant at that entropy. */
export async function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

export type ApiKeyIdentity = {
  id: string;
  teamId: string;
  subject: string;
  /** the admin who created the key: its tokens carry it (key_by), and it never approves what they open */
  createdBy: string;
  scopes: Scope[];
  runId?: string;
  /** ms since epoch, or null for a key that never expires */
  expiresAt: number | null;
};

export type ApiKeyAuth = {
  verify(key: string, now: number): Promise<Result<ApiKeyIdentity, string>>;
  /** For tokens minted from a key: true once the key is revoked (or gone), within REVOCATION_RECHECK_MS. */
  isRevoked(keyId: string, now: number): Promise<boolean>;
  /** This isolate revoked the key: its tokens stop here at once. */
  markRevoked(keyId: string): void;
  /**
   * Records `last_used_at` for a key that was just used to issue a token (not on verification: a refused request
   * changes nothing), at most once per LAST_USED_EVERY_MS per key in this isolate; a failed write is only logged.
   */
  recordUse(keyId: string, now: number): Promise<void>;
};

/** What a valid key says about its caller; scopes this server no longer knows are dropped. */
function identityOf(row: ApiKeyRow): ApiKeyIdentity {
  const scopes = row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
  return {
    id: row.id,
    teamId: row.teamId,
    subject: row.subject,
    createdBy: row.createdBy,
    scopes,
    runId: row.runId ?? undefined,
    expiresAt: row.expiresAt,
  };
}

export function createApiKeyAuth(
  store: ApiKeyStore,
  recheckMs = REVOCATION_RECHECK_MS,
  maxCached = 10_000,
): ApiKeyAuth {
  const revocations = new Map<string, { revoked: boolean; until: number }>();
  const lastTouched = new Map<string, number>();
  /** Records use at most once per LAST_USED_EVERY_MS per key here; a failed write never fails the request. */
  const touch = async (keyId: string, now: number) => {
    const last = lastTouched.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    if (lastTouched.size >= maxCached) lastTouched.clear();
    lastTouched.set(keyId, now);
    try {
      await store.touch(keyId, now);
    } catch (e) {
      log.warn("api key last_used_at not recorded", { key_id: keyId, error: String(e) });
    }
  };
  const remember = (keyId: string, revoked: boolean, until: number) => {
    if (revocations.size >= maxCached) revocations.clear();
    revocations.set(keyId, { revoked, until });
  };
  return {
    async verify(key, now) {
      const parsed = parseApiKey(key);
      if (!parsed.ok) return err(parsed.error);
      const row = await store.byPrefix(parsed.prefix);
      if (!row || !sameHex(row.secretHash, await hashApiKey(key))) return err("unknown API key");
      if (row.revokedAt !== null) {
        remember(row.id, true, Number.POSITIVE_INFINITY);
        return err("API key revoked");
      }
      if (row.expiresAt !== null && row.expiresAt <= now) {
        return err(`API key expired at ${new Date(row.expiresAt).toISOString()}`);
      }
      remember(row.id, false, now + recheckMs);
      return ok(identityOf(row));
    },
    recordUse: touch,
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
