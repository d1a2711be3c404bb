// API keys: format, hashing, verification, and the revocation bound with the clock passed in (pure; Node project).
import { describe, expect, it } from "vitest";
import type { ApiKeyRow, ApiKeyStore } from "../ports/api-key-store";
import { API_KEY_PATTERN, createApiKeyAuth, generateApiKey, hashApiKey, REVOCATION_RECHECK_MS } from "./api-keys";

function memoryStore(): ApiKeyStore & { rows: ApiKeyRow[]; reads: number } {
  const s = {
    rows: [] as ApiKeyRow[],
    reads: 0,
    insert: async (r: ApiKeyRow) => void s.rows.push(r),
    byPrefix: async (p: string) => {
      s.reads++;
      return s.rows.find((r) => r.prefix === p) ?? null;
    },
    byId: async (id: string) => {
      s.reads++;
      return s.rows.find((r) => r.id === id) ?? null;
    },
    list: async (t: string) => s.rows.filter((r) => r.teamId === t),
    revoke: async (_t: string, id: string, now: number) => {
      const r = s.rows.find((x) => x.id === id);
      if (r && r.revokedAt === null) r.revokedAt = now;
      return r ?? null;
    },
  };
  return s;
}

async function withKey(store: ReturnType<typeof memoryStore>, scopes = ["runs:read", "bogus"]) {
  const { prefix, key } = generateApiKey();
  store.rows.push({
    id: "key_1",
    teamId: "t1",
    prefix,
    secretHash: await hashApiKey(key),
    subject: "agent",
    scopes,
    runId: null,
    createdBy: "admin",
    createdAt: 0,
    revokedAt: null,
  });
  return key;
}

describe("API keys", () => {
  it("generates distinct keys in the documented format", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).toMatch(API_KEY_PATTERN);
    expect(a.key).not.toBe(b.key);
  });

  it("verifies a key by prefix and hash; keeps only known scopes; refuses a wrong secret or a revoked key", async () => {
    const store = memoryStore();
    const key = await withKey(store);
    const auth = createApiKeyAuth(store);
    const ok = await auth.verify(key, 0);
    expect(ok.ok && ok.value).toEqual({
      id: "key_1",
      teamId: "t1",
      subject: "agent",
      scopes: ["runs:read"],
      runId: undefined,
    });
    const wrong = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    expect(await auth.verify(wrong, 0)).toEqual({ ok: false, error: "unknown API key" });
    expect(await auth.verify("wk_short", 0)).toEqual({ ok: false, error: "malformed API key" });
    (store.rows[0] as ApiKeyRow).revokedAt = 5;
    expect(await auth.verify(key, 0)).toEqual({ ok: false, error: "API key revoked" });
  });

  it(`a revoked key's tokens stop within ${REVOCATION_RECHECK_MS / 1000} s on other isolates, at once on the revoking one`, async () => {
    const store = memoryStore();
    await withKey(store);
    const other = createApiKeyAuth(store);
    const revoking = createApiKeyAuth(store);
    const t0 = 1_000_000;
    expect(await other.isRevoked("key_1", t0)).toBe(false);
    await store.revoke("t1", "key_1", t0 + 1);
    revoking.markRevoked("key_1");
    expect(await revoking.isRevoked("key_1", t0 + 1)).toBe(true);
    // the other isolate trusts its answer until the recheck interval ends, then asks the store
    expect(await other.isRevoked("key_1", t0 + REVOCATION_RECHECK_MS - 1)).toBe(false);
    expect(await other.isRevoked("key_1", t0 + REVOCATION_RECHECK_MS)).toBe(true);
    const reads = store.reads;
    expect(await other.isRevoked("key_1", t0 + 10 * REVOCATION_RECHECK_MS)).toBe(true);
    expect(store.reads).toBe(reads);
    expect(await other.isRevoked("key_gone", t0)).toBe(true);
  });
});
