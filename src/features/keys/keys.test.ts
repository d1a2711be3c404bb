// Team API keys and POST /v1/tokens over the worker: creation (shown once, stored hashed), listing, revocation, audit,
// token exchange (scopes ⊆ the key's, ≤ 900 s), and a revoked key's tokens stopping.
import { env } from "cloudflare:test";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { call, token } from "../../../test/helpers";

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
    expect(r.json.key).toMatch(/^wk_[0-9a-f]{12}_[\w-]{43}$/);
    expect(r.json.key.startsWith(`wk_${r.json.prefix}_`)).toBe(true);
    const row = await env.DB.prepare("SELECT * FROM api_key WHERE id = ?")
      .bind(r.json.id)
      .first<Record<string, string>>();
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(r.json.key.split("_")[2]);
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
    const forged = `${k.json.key.slice(0, -3)}${k.json.key.endsWith("AAA") ? "BBB" : "AAA"}`;
    for (const bearer of [undefined, "nope", `wk_000000000000_${"a".repeat(43)}`, forged, await token("team-t3")]) {
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
