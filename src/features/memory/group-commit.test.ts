// Concurrent single writes of one team commit one at a time, each in its own request: each keeps its own outcome,
// duplicates (exact or near) and contradictions among them are caught as one write at a time would catch them, the
// near-duplicate check is one index query per write, and an index failure leaves no new row behind while reinforcements
// stand.
import { describe, expect, it } from "vitest";
import { freshTeam, memDocCount, memoryHarness, memoryToken } from "../../../test/memory-harness";
import { teamMemoryReads } from "../../../test/team-memory-reads";
import type { VectorIndex } from "../../ports/vector-index";

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

/** The eight texts written at once, one single write each, so they wait for each other's commits. */
const writeAll = (h: ReturnType<typeof memoryHarness>, token: string, ns: string) =>
  Promise.all(
    texts.map((text) => h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "episodic", text } })),
  );

describe("commits of concurrent single writes", () => {
  it("creates every one of 8 concurrent distinct writes with its own id, each findable", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await memoryToken(team);
    const ns = `team/${team}/project/gc`;
    const results = await writeAll(h, token, ns);
    expect(results.map((r) => r.status)).toEqual(texts.map(() => 201));
    expect(new Set(results.map((r) => r.json.id)).size).toBe(texts.length);
    expect(await memDocCount(team)).toBe(texts.length);
    for (const [i, text] of texts.entries()) {
      const q = await h.call("POST", "/v1/memory/query", { token, body: { namespaces: [ns], text, top_k: 1 } });
      expect(q.json.results[0]).toMatchObject({ id: results[i]?.json.id, text });
    }
  });

  it("stores the same text sent 6 times at once once: one created, five reinforcing it", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await memoryToken(team);
    const body = { namespace: `team/${team}/project/gc`, class: "episodic", text: texts[0] };
    const results = await Promise.all(Array.from({ length: 6 }, () => h.call("POST", "/v1/memory", { token, body })));
    const created = results.filter((r) => r.json.status === "created");
    expect(created).toHaveLength(1);
    for (const r of results) expect(r.json.id).toBe(created[0]?.json.id);
    expect(results.filter((r) => r.json.status === "reinforced")).toHaveLength(5);
    expect(await memDocCount(team)).toBe(1);
  });

  it("leaves no new row when the index upsert fails, while a reinforcing write beside it stands", async () => {
    const ok = memoryHarness();
    const team = freshTeam();
    const token = await memoryToken(team);
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
    expect(await memDocCount(team)).toBe(1);
  });

  it("catches two near-identical concurrent writes: one memory, reinforced by the other", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await memoryToken(team);
    const ns = `team/${team}/project/gc`;
    const text =
      "The nightly export job fails with ENOSPC when the scratch volume is below 5 GiB; clean /tmp before the run";
    // an unrelated write opens a commit; the two near-identical texts (different content hashes) wait for it, then
    // commit one after the other (either first), so the second is checked against the first
    const opener = h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "semantic", text: texts[2] } });
    const results = await Promise.all(
      [text, `${text}.`].map((t) =>
        h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "semantic", text: t } }),
      ),
    );
    expect((await opener).status).toBe(201);
    expect(results.map((r) => [r.status, r.json.status]).sort()).toEqual([
      [200, "reinforced"],
      [201, "created"],
    ]);
    expect(results[1]?.json.id).toBe(results[0]?.json.id);
    expect(await memDocCount(team)).toBe(2);
    // as a sequential reinforcement: importance 10 + 8, count 1, on the doc and on its team importance row
    const reads = teamMemoryReads(h.deps);
    const [row] = await reads.teamDocs(team, [results[0]?.json.id as string]);
    expect({ importance: row?.importance, n: row?.reinforceCount }).toEqual({ importance: 18, n: 1 });
    expect(await reads.teamImportance(team, results[0]?.json.id as string, h.now())).toBe(18);
  });

  it("links a contradiction to the memory a concurrent write created just before it", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const token = await memoryToken(team);
    const ns = `team/${team}/org/runbooks`;
    const pair = [
      "Restarting the ingest worker clears the stuck queue backlog within five minutes",
      "Restarting the ingest worker does not clear the stuck queue backlog within five minutes",
    ];
    // a first (unrelated) write opens a commit; the two that follow wait for it and commit one after the other (either
    // first): the second supersedes the first
    const opener = h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "kb", text: texts[1] } });
    const [a, b] = await Promise.all(
      pair.map((text) => h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "kb", text } })),
    );
    expect((await opener).status).toBe(201);
    expect(a?.status).toBe(201);
    expect(b?.status).toBe(201);
    const links = [a?.json.supersedes === b?.json.id, b?.json.supersedes === a?.json.id];
    expect(links.filter(Boolean)).toHaveLength(1);
    expect(await memDocCount(team)).toBe(3);
  });

  it("asks the index one query per write, all of them batched calls", async () => {
    const real = memoryHarness().deps.vectorIndex;
    const calls = { query: 0, queryMany: 0, queries: 0 };
    const counting: VectorIndex = {
      ...real,
      query: (...a) => {
        calls.query++;
        return real.query(...a);
      },
      queryMany: (shard, qs) => {
        calls.queryMany++;
        calls.queries += qs.length;
        return real.queryMany(shard, qs);
      },
    };
    const h = memoryHarness({ vectorIndex: counting });
    const team = freshTeam();
    const token = await memoryToken(team);
    const ns = `team/${team}/project/gc`;
    const results = await writeAll(h, token, ns);
    expect(results.map((r) => r.status)).toEqual(texts.map(() => 201));
    expect(calls.query).toBe(0);
    expect(calls.queries).toBe(texts.length);
    expect(calls.queryMany).toBe(texts.length);
  });
});
