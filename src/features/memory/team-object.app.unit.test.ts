// Memory rows live in the team's own object: a token of one team never reaches another's, and D1 holds no memory row.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { teamObjectTables } from "../../../test/team-object-tables";
import { mintToken } from "../../auth/mint";

const { d1MemoryRowCount, env, freshTeam, memoryHarness } = await nodeMemoryTools();
const tables = teamObjectTables((teamId, fn) =>
  runInDurableObject(env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(teamId)), (_o, state) => fn(state.storage)),
);

const tok = (teamId: string) =>
  mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId,
    scopes: ["memory:read", "memory:write", "policy:admin"],
    sub: `u-${teamId}`,
    nowSeconds: Math.floor(Date.now() / 1000),
  });

/** every row of the team object's three memory tables, for before/after comparisons */
const snapshot = async (teamId: string) => ({
  docs: await tables.docs(teamId),
  importance: await tables.importance(teamId),
  uses: await tables.uses(teamId),
});

describe("the team object as memory home", () => {
  it("keeps writes, uses and reinforcements in the writer's own object, and writes no memory row to D1", async () => {
    const h = memoryHarness();
    const [a, b] = [freshTeam("a"), freshTeam("b")];
    const before = await d1MemoryRowCount();
    const wa = await h.call("POST", "/v1/memory", {
      token: await tok(a),
      body: { namespace: `team/${a}/org/notes`, class: "kb", text: "the billing queue drains at 02:00 UTC" },
    });
    const wb = await h.call("POST", "/v1/memory/bulk", {
      token: await tok(b),
      body: {
        items: [
          { namespace: `team/${b}/org/notes`, class: "kb", text: "the ledger compacts every Sunday night" },
          { namespace: `team/${b}/project/p`, class: "semantic", text: "raising the pool size fixed the stall" },
        ],
      },
    });
    expect([wa.status, wb.status]).toEqual([201, 201]);
    await h.call("POST", "/v1/memory/use", { token: await tok(a), body: { ids: [wa.json.id], run_id: "r1" } });
    await h.call("POST", "/v1/memory", {
      token: await tok(a),
      body: { namespace: `team/${a}/org/notes`, class: "kb", text: "the billing queue drains at 02:00 UTC" },
    });
    const [ma, mb] = [await snapshot(a), await snapshot(b)];
    expect(ma.docs.map((d) => d.id)).toEqual([wa.json.id]);
    expect(ma.docs[0]).toMatchObject({ reinforceCount: 1 });
    expect(ma.uses).toHaveLength(1);
    expect(mb.docs.map((d) => d.id).sort()).toEqual(wb.json.results.map((r: { id: string }) => r.id).sort());
    expect(await d1MemoryRowCount()).toBe(before);
    expect(before).toBe(0);
  });

  it("never lets a token of team A reach team B's object: B's ids and namespaces on every memory route", async () => {
    const h = memoryHarness();
    const [a, b] = [freshTeam("a"), freshTeam("b")];
    const wb = await h.call("POST", "/v1/memory", {
      token: await tok(b),
      body: { namespace: `team/${b}/org/notes`, class: "kb", text: "rotate the signing key every ninety days" },
    });
    const bId = wb.json.id as string;
    const bNs = `team/${b}/org/notes`;
    const tA = await tok(a);
    const seenByB = await snapshot(b);

    const attempts = [
      await h.call("POST", "/v1/memory", { token: tA, body: { namespace: bNs, class: "kb", text: "hijack b" } }),
      await h.call("POST", "/v1/memory/bulk", {
        token: tA,
        body: { items: [{ namespace: bNs, class: "kb", text: "hijack b in bulk" }] },
      }),
      await h.call("POST", "/v1/memory/query", { token: tA, body: { namespaces: [bNs], text: "signing key" } }),
      await h.call("POST", "/v1/memory/import", {
        token: tA,
        body: { namespace: `team/${b}/org/charter`, kind: "charter", entries: [{ text: "obey team a" }] },
      }),
    ];
    for (const r of attempts) {
      expect(r.status, JSON.stringify(r.json)).toBeGreaterThanOrEqual(200);
      expect(JSON.stringify(r.json)).not.toContain(bId);
    }
    // a refused namespace: a 4xx, or a per-item refusal in bulk
    expect(attempts[0]?.status).toBe(403);
    expect(attempts[1]?.json.results?.[0]?.status ?? attempts[1]?.status).not.toBe("created");
    expect(attempts[2]?.status).toBe(403);
    expect(attempts[3]?.status).toBe(403);
    // B's ids with A's token: not found, nothing boosted, no use event in B's object
    const use = await h.call("POST", "/v1/memory/use", { token: tA, body: { ids: [bId], run_id: "r-a" } });
    expect(use.status).toBe(200);
    expect(use.json).toMatchObject({ used: [], boosted: [], not_found: [bId] });
    const activate = await h.call("POST", "/v1/memory/activate", {
      token: tA,
      body: { session_kind: "ops", query: "rotate the signing key" },
    });
    expect(JSON.stringify(activate.json)).not.toContain(bId);
    expect(await snapshot(b)).toEqual(seenByB);
    // and nothing of B's leaked into A's object
    expect((await snapshot(a)).docs.map((d) => d.namespace).filter((ns) => String(ns).includes(b))).toEqual([]);
  });
});
