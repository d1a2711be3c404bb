// Concurrent single writes of one team go out as group commits: each keeps its own outcome, duplicates inside a
// commit reinforce the first, and an index failure leaves no new row behind while reinforcements stand.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { freshTeam, memoryHarness } from "../../../test/memory-harness";
import { mintToken } from "../../auth/mint";
import type { VectorIndex } from "../../ports/vector-index";

const tok = (teamId: string) =>
  mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId,
    scopes: ["memory:read", "memory:write"],
    sub: `u-${teamId}`,
    nowSeconds: Math.floor(Date.now() / 1000),
  });
const docCount = async (teamId: string) =>
  (await env.DB.prepare("SELECT count(*) AS c FROM mem_doc WHERE team_id = ?").bind(teamId).first<{ c: number }>())
    ?.c ?? 0;
const texts = [
  "billing-api timed out after the nightly deploy; raising the pool size fixed it",
  "the scheduler lost its lease during a node drain; a longer lease ttl fixed it",
  "ledger writes stalled on a lock after a schema migration; adding an index fixed it",
  "mailer crash-looped after a dependency bump; pinning the version fixed it",
  "search-indexer ran out of memory on a traffic spike; lowering batch size fixed it",
  "checkout returned 503 after a certificate rotation; restarting the pool fixed it",
  "exporter dropped messages after a region failover; replaying dead letters fixed it",
  "auth-gateway served stale data after a cache flush; a shorter ttl fixed it",
];

describe("group commit of concurrent single writes", () => {
  it("creates every one of 8 concurrent distinct writes with its own id, each findable", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await tok(team);
    const ns = `team/${team}/project/gc`;
    const results = await Promise.all(
      texts.map((text) => h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "episodic", text } })),
    );
    expect(results.map((r) => r.status)).toEqual(texts.map(() => 201));
    expect(new Set(results.map((r) => r.json.id)).size).toBe(texts.length);
    expect(await docCount(team)).toBe(texts.length);
    for (const [i, text] of texts.entries()) {
      const q = await h.call("POST", "/v1/memory/query", { token, body: { namespaces: [ns], text, top_k: 1 } });
      expect(q.json.results[0]).toMatchObject({ id: results[i]?.json.id, text });
    }
  });

  it("stores the same text sent 6 times at once once: one created, five reinforcing it", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await tok(team);
    const body = { namespace: `team/${team}/project/gc`, class: "episodic", text: texts[0] };
    const results = await Promise.all(Array.from({ length: 6 }, () => h.call("POST", "/v1/memory", { token, body })));
    const created = results.filter((r) => r.json.status === "created");
    expect(created).toHaveLength(1);
    for (const r of results) expect(r.json.id).toBe(created[0]?.json.id);
    expect(results.filter((r) => r.json.status === "reinforced")).toHaveLength(5);
    expect(await docCount(team)).toBe(1);
  });

  it("leaves no new row when the index upsert fails, while a reinforcing write in the same commit stands", async () => {
    const ok = memoryHarness();
    const team = freshTeam();
    const token = await tok(team);
    const ns = `team/${team}/project/gc`;
    const first = await ok.call("POST", "/v1/memory", {
      token,
      body: { namespace: ns, class: "episodic", text: texts[0] },
    });
    expect(first.status).toBe(201);
    const real = ok.deps.vectorIndex;
    const failing: VectorIndex = {
      ...real,
      query: real.query.bind(real),
      upsert: async () => {
        throw new Error("index unavailable");
      },
    };
    const h = memoryHarness({ vectorIndex: failing });
    const results = await Promise.all(
      [texts[0], texts[1], texts[2]].map((text) =>
        h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "episodic", text } }),
      ),
    );
    expect(results[0]).toMatchObject({ status: 200, json: { id: first.json.id, status: "reinforced" } });
    expect(results[1]?.status).toBeGreaterThanOrEqual(500);
    expect(results[2]?.status).toBeGreaterThanOrEqual(500);
    expect(await docCount(team)).toBe(1);
  });
});
