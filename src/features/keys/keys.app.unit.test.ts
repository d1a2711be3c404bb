// Team API keys and POST /v1/tokens over the whole app in Node (nodeWarden): creation (shown once, stored hashed), listing, revocation, audit,
// token exchange (scopes ⊆ the key's, ≤ 900 s), and a revoked key's tokens stopping.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { hashApiKey } from "../../auth/api-keys";
import { checksumOf, KEY_PATTERN } from "../../auth/key-format";

const { call, deps, depsWith, token } = await nodeHelpers();

const decide = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

async function createKey(
  team: string,
  body: unknown = { subject: "agent:a1", scopes: ["policy:decide", "runs:read"] },
) {
  return call("POST", "/v1/keys", { token: await token(team), body });
}

describe("POST /v1/keys", () => {
  it("creates a key, answers its secret once and stores only its hash", async () => {
    const r = await createKey("team-k1");
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      subject: "agent:a1",
      scopes: ["policy:decide", "runs:read"],
      run_id: null,
      revoked_at: null,
    });
    expect(r.json.key).toMatch(KEY_PATTERN);
    expect(r.json.key.startsWith(`wdn_live_${r.json.prefix}`)).toBe(true);
    expect(r.json).toMatchObject({ expires_at: null, expires_soon: false, last_used_at: null });
    const row = await deps.apiKeyStore.byId(r.json.id);
    expect(row?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(r.json.key.slice(21, -6));
    const list = await call("GET", "/v1/keys", { token: await token("team-k1") });
    expect(list.status).toBe(200);
    expect(list.json.keys.map((k: { id: string }) => k.id)).toContain(r.json.id);
    expect(JSON.stringify(list.json)).not.toContain(r.json.key);
    // another team sees none of them
    const other = await call("GET", "/v1/keys", { token: await token("team-k1-other") });
    expect(other.json.keys).toEqual([]);
  });

  it("is audited", async () => {
    const r = await createKey("team-k-aud");
    await call("DELETE", `/v1/keys/${r.json.id}`, { token: await token("team-k-aud") });
    const audit = await call("GET", "/v1/audit", { token: await token("team-k-aud") });
    const types = audit.json.entries.map((e: { type: string; subject_id: string }) => `${e.type}:${e.subject_id}`);
    expect(types).toEqual(expect.arrayContaining([`api_key.created:${r.json.id}`, `api_key.revoked:${r.json.id}`]));
    expect(JSON.stringify(audit.json)).not.toContain(r.json.key);
  });

  it("refuses callers without policy:admin, scopes beyond the caller's, and bad bodies (4xx, never 5xx)", async () => {
    const notAdmin = await call("POST", "/v1/keys", {
      token: await token("team-k2", ["runs:read"]),
      body: { subject: "a", scopes: ["runs:read"] },
    });
    expect(notAdmin.status).toBe(403);
    const beyond = await call("POST", "/v1/keys", {
      token: await token("team-k2", ["policy:admin"]),
      body: { subject: "a", scopes: ["policy:admin", "runs:write"] },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.json.error.message).toContain("runs:write");
    const runBound = await call("POST", "/v1/keys", {
      token: await token("team-k2", ["policy:admin", "runs:read"], { runId: "run_1" }),
      body: { subject: "a", scopes: ["runs:read"] },
    });
    expect(runBound.status).toBe(403);
    for (const body of [
      {},
      { subject: "", scopes: ["runs:read"] },
      { subject: "a b", scopes: ["runs:read"] },
      { subject: "a", scopes: [] },
      { subject: "a", scopes: ["root"] },
      { subject: "a", scopes: ["runs:read", "runs:read"] },
      { subject: "a", scopes: ["runs:read"], extra: 1 },
      { subject: "a", scopes: "runs:read" },
      [],
    ]) {
      const r = await call("POST", "/v1/keys", { token: await token("team-k2"), body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("DELETE /v1/keys/:id", () => {
  it("revokes the team's own key only; another team gets 404; repeats answer the same revocation", async () => {
    const r = await createKey("team-k3");
    expect((await call("DELETE", `/v1/keys/${r.json.id}`, { token: await token("team-k3-other") })).status).toBe(404);
    const del = await call("DELETE", `/v1/keys/${r.json.id}`, { token: await token("team-k3") });
    expect(del.status).toBe(200);
    expect(del.json.revoked_at).not.toBeNull();
    const again = await call("DELETE", `/v1/keys/${r.json.id}`, { token: await token("team-k3") });
    expect(again.json.revoked_at).toBe(del.json.revoked_at);
    expect((await call("DELETE", "/v1/keys/key_missing", { token: await token("team-k3") })).status).toBe(404);
  });
});

describe("POST /v1/tokens", () => {
  it("exchanges a key for a capability token (≤ 900 s, the key's subject, scopes and kid) that works", async () => {
    const k = await createKey("team-t1");
    const r = await call("POST", "/v1/tokens", { token: k.json.key, body: {} });
    expect(r.status).toBe(200);
    const claims = decodeJwt(r.json.token);
    expect(claims).toMatchObject({
      team_id: "team-t1",
      sub: "agent:a1",
      scopes: ["policy:decide", "runs:read"],
      key_id: k.json.id,
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    expect(decodeProtectedHeader(r.json.token).kid).toBe("k1");
    expect(Date.parse(r.json.expires_at)).toBe((claims.exp as number) * 1000);
    const used = await call("POST", "/v1/policy/decide", { token: r.json.token, body: decide });
    expect(used.status).toBe(200);
    // the key itself is not a capability token
    expect((await call("POST", "/v1/policy/decide", { token: k.json.key, body: decide })).status).toBe(401);
  });

  it("narrows scopes and lifetime on request; more scopes than the key's → 403; ttl over 900 → 400", async () => {
    const k = await createKey("team-t2");
    const narrow = await call("POST", "/v1/tokens", { token: k.json.key, body: { scopes: ["runs:read"], ttl_s: 60 } });
    expect(narrow.status).toBe(200);
    const c = decodeJwt(narrow.json.token);
    expect(c.scopes).toEqual(["runs:read"]);
    expect((c.exp as number) - (c.iat as number)).toBe(60);
    expect((await call("POST", "/v1/policy/decide", { token: narrow.json.token, body: decide })).status).toBe(403);
    const more = await call("POST", "/v1/tokens", {
      token: k.json.key,
      body: { scopes: ["runs:read", "policy:admin"] },
    });
    expect(more.status).toBe(403);
    for (const body of [
      { ttl_s: 901 },
      { ttl_s: 0 },
      { ttl_s: 1.5 },
      { scopes: [] },
      { scopes: ["x"] },
      { other: 1 },
    ]) {
      const r = await call("POST", "/v1/tokens", { token: k.json.key, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("answers 401 to a missing, malformed, unknown or forged key — before reading the body", async () => {
    const k = await createKey("team-t3");
    // same lookup id, another secret, a valid checksum: it reaches the hash comparison and fails there
    const body = `${k.json.key.slice(0, 21)}${"a".repeat(43)}`;
    const forged = `${body}${checksumOf(body)}`;
    const typo = `${k.json.key.slice(0, -1)}${k.json.key.endsWith("0") ? "1" : "0"}`;
    for (const bearer of [
      undefined,
      "nope",
      `wk_000000000000_${"a".repeat(43)}`,
      forged,
      typo,
      await token("team-t3"),
    ]) {
      const r = await call("POST", "/v1/tokens", { token: bearer, body: "{bad json" });
      expect(r.status, String(bearer)).toBe(401);
      expect(r.json.error.code).toBe("unauthorized");
    }
  });

  it("stops a revoked key: no new tokens, and its live tokens are refused (at once on the revoking isolate)", async () => {
    const k = await createKey("team-t4");
    const t = await call("POST", "/v1/tokens", { token: k.json.key, body: {} });
    expect((await call("POST", "/v1/policy/decide", { token: t.json.token, body: decide })).status).toBe(200);
    await call("DELETE", `/v1/keys/${k.json.id}`, { token: await token("team-t4") });
    const again = await call("POST", "/v1/tokens", { token: k.json.key, body: {} });
    expect(again.status).toBe(401);
    expect(again.json.error.message).toContain("revoked");
    const stale = await call("POST", "/v1/policy/decide", { token: t.json.token, body: decide });
    expect(stale.status).toBe(401);
    expect(stale.json.error.message).toContain("revoked");
  });
});

describe("key expiry, last use and legacy keys", () => {
  const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

  it("refuses an expires_at in the past, beyond 365 days, or not a date (400, nothing stored)", async () => {
    const t = await token("team-e0");
    for (const expires_at of [inDays(-1), inDays(366), "tomorrow", "2027-13-01T00:00:00Z", 123]) {
      const r = await call("POST", "/v1/keys", { token: t, body: { subject: "a", scopes: ["runs:read"], expires_at } });
      expect(r.status, String(expires_at)).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
    expect((await call("GET", "/v1/keys", { token: t })).json.keys).toEqual([]);
  });

  it("warns ahead of expiry: expires_soon in the list, a warning and Warning header on token exchange", async () => {
    const t = await token("team-e1");
    const soon = await createKeyAt("team-e1", inDays(3));
    const later = await createKeyAt("team-e1", inDays(30));
    const list = await call("GET", "/v1/keys", { token: t });
    const byId = Object.fromEntries(list.json.keys.map((k: { id: string }) => [k.id, k]));
    expect(byId[soon.json.id]).toMatchObject({ expires_at: soon.json.expires_at, expires_soon: true });
    expect(byId[later.json.id]).toMatchObject({ expires_soon: false });
    const warned = await call("POST", "/v1/tokens", { token: soon.json.key, body: {} });
    expect(warned.status).toBe(200);
    expect(warned.json.key_expires_at).toBe(soon.json.expires_at);
    expect(warned.json.warning).toContain(soon.json.expires_at);
    expect(warned.headers.get("warning")).toMatch(/^299 warden ".*expires at/);
    const quiet = await call("POST", "/v1/tokens", { token: later.json.key, body: {} });
    expect(quiet.json.warning).toBeUndefined();
    expect(quiet.headers.get("warning")).toBeNull();
  });

  it("refuses an expired key with a clear 401; a token never outlives its key", async () => {
    const k = await createKeyAt("team-e2", inDays(1));
    // within 900 s of its expiry (the clock moved there), the token is cut at the key's expiry
    const expiry = Date.parse(k.json.expires_at);
    const near = expiry - 120_000;
    const cut = await call(
      "POST",
      "/v1/tokens",
      { token: k.json.key, body: {} },
      depsWith({ clock: { now: () => near } }),
    );
    expect(cut.status).toBe(200);
    const claims = decodeJwt(cut.json.token);
    expect(claims.exp as number).toBeLessThanOrEqual(Math.floor(expiry / 1000));
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThan(900);
    const past = depsWith({ clock: { now: () => expiry + 1 } });
    const r = await call("POST", "/v1/tokens", { token: k.json.key, body: {} }, past);
    expect(r.status).toBe(401);
    expect(r.json.error.message).toMatch(/^API key expired at \d{4}-/);
  });

  it("records when a key was last used", async () => {
    const k = await createKey("team-e3");
    const before = Date.now();
    expect((await call("POST", "/v1/tokens", { token: k.json.key, body: {} })).status).toBe(200);
    const list = await call("GET", "/v1/keys", { token: await token("team-e3") });
    const used = Date.parse(list.json.keys[0].last_used_at);
    expect(used).toBeGreaterThanOrEqual(before);
    expect(used).toBeLessThanOrEqual(Date.now());
  });

  it("keeps exchanging a legacy wk_ key minted before the wdn_ format", async () => {
    const legacy = `wk_0a1b2c3d4e5f_${"L".repeat(43)}`;
    await deps.apiKeyStore.insert({
      id: "key_legacy",
      teamId: "team-e4",
      prefix: "0a1b2c3d4e5f",
      secretHash: await hashApiKey(legacy),
      subject: "agent:old",
      scopes: ["runs:read"],
      runId: null,
      createdBy: "admin",
      createdAt: 1,
      revokedAt: null,
      expiresAt: null,
      lastUsedAt: null,
    });
    const r = await call("POST", "/v1/tokens", { token: legacy, body: {} });
    expect(r.status).toBe(200);
    expect(decodeJwt(r.json.token)).toMatchObject({ team_id: "team-e4", key_id: "key_legacy", sub: "agent:old" });
  });
});

function createKeyAt(team: string, expires_at: string) {
  return createKey(team, { subject: "agent:exp", scopes: ["runs:read"], expires_at });
}
