// API keys: hashing, verification (checksum before lookup, legacy wk_ keys, expiry), last-used throttling, and the
// revocation bound with the clock passed in (pure; Node project).
import { describe, expect, it } from "vitest";
import type { ApiKeyRow, ApiKeyStore } from "../ports/api-key-store";
import { createApiKeyAuth, generateApiKey, hashApiKey, LAST_USED_EVERY_MS, REVOCATION_RECHECK_MS } from "./api-keys";

function memoryStore(): ApiKeyStore & { rows: ApiKeyRow[]; reads: number; touches: number[] } {
  const s = {
    rows: [] as ApiKeyRow[],
    reads: 0,
    touches: [] as number[],
    touch: async (id: string, now: number) => {
      s.touches.push(now);
      const r = s.rows.find((x) => x.id === id);
      if (r) r.lastUsedAt = now;
    },
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

async function withKey(
  store: ReturnType<typeof memoryStore>,
  scopes = ["runs:read", "bogus"],
  { key: given, expiresAt = null }: { key?: { prefix: string; key: string }; expiresAt?: number | null } = {},
) {
  const { prefix, key } = given ?? generateApiKey();
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
    expiresAt,
    lastUsedAt: null,
  });
  return key;
}

describe("API keys", () => {
  it("verifies a key by prefix and hash; keeps only known scopes; refuses a wrong secret or a revoked key", async () => {
    const store = memoryStore();
    const key = await withKey(store);
    const auth = createApiKeyAuth(store);
    const ok = await auth.verify(key, 0);
    expect(ok.ok && ok.value).toEqual({
      id: "key_1",
      teamId: "t1",
      subject: "agent",
      createdBy: "admin",
      scopes: ["runs:read"],
      runId: undefined,
      expiresAt: null,
    });
    // another secret with the same lookup id and a valid checksum: found by prefix, refused by hash
    const { key: other } = generateApiKey();
    const body = `${key.slice(0, 21)}${other.slice(21, -6)}`;
    const { checksumOf } = await import("./key-format");
    expect(await auth.verify(`${body}${checksumOf(body)}`, 0)).toEqual({ ok: false, error: "unknown API key" });
    expect(await auth.verify("wk_short", 0)).toMatchObject({ ok: false, error: expect.stringContaining("malformed") });
    (store.rows[0] as ApiKeyRow).revokedAt = 5;
    expect(await auth.verify(key, 0)).toEqual({ ok: false, error: "API key revoked" });
  });

  it("refuses a bad checksum before any store lookup", async () => {
    const store = memoryStore();
    const key = await withKey(store);
    const auth = createApiKeyAuth(store);
    const typo = `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`;
    expect(await auth.verify(typo, 0)).toEqual({ ok: false, error: "API key checksum mismatch" });
    expect(await auth.verify(key.slice(0, 30), 0)).toMatchObject({ ok: false });
    expect(store.reads).toBe(0);
    expect((await auth.verify(key, 0)).ok).toBe(true);
    expect(store.reads).toBe(1);
  });

  it("keeps verifying legacy wk_ keys", async () => {
    const store = memoryStore();
    const legacy = { prefix: "0123456789ab", key: `wk_0123456789ab_${"Zz09_-".repeat(7)}x` };
    await withKey(store, ["runs:read"], { key: legacy });
    const r = await createApiKeyAuth(store).verify(legacy.key, 0);
    expect(r.ok && r.value.id).toBe("key_1");
  });

  it("refuses an expired key with its expiry, and answers the expiry of a live one", async () => {
    const store = memoryStore();
    const key = await withKey(store, ["runs:read"], { expiresAt: 10_000 });
    const auth = createApiKeyAuth(store);
    const live = await auth.verify(key, 9_999);
    expect(live.ok && live.value.expiresAt).toBe(10_000);
    expect(await auth.verify(key, 10_000)).toEqual({
      ok: false,
      error: `API key expired at ${new Date(10_000).toISOString()}`,
    });
  });

  it(`records last use at most once per ${LAST_USED_EVERY_MS / 1000} s per key per isolate, never on verification alone; a failed write is not a failure`, async () => {
    const store = memoryStore();
    const key = await withKey(store);
    const auth = createApiKeyAuth(store);
    const verified = await auth.verify(key, 500);
    expect(verified.ok).toBe(true);
    // a request refused after verification (bad body, scopes beyond the key's) must change nothing
    expect(store.touches).toEqual([]);
    const id = verified.ok ? verified.value.id : "";
    for (const t of [1_000, 2_000, 1_000 + LAST_USED_EVERY_MS - 1, 1_000 + LAST_USED_EVERY_MS, 200_000]) {
      await auth.recordUse(id, t);
    }
    expect(store.touches).toEqual([1_000, 1_000 + LAST_USED_EVERY_MS, 200_000]);
    expect(store.rows[0]?.lastUsedAt).toBe(200_000);
    // another isolate has its own throttle
    await createApiKeyAuth(store).recordUse(id, 200_001);
    expect(store.touches.at(-1)).toBe(200_001);
    store.touch = async () => {
      throw new Error("d1 down");
    };
    await expect(auth.recordUse(id, 900_000)).resolves.toBeUndefined();
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
