// Cards (the local index's read model) stay in step with the memory rows: ranking from cards equals ranking from the rows.
import { describe, expect, it } from "vitest";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { mintToken } from "../../auth/mint";
import type { Principal } from "../../auth/tokens";
import { orFail } from "../../errors";
import { runDailySweep } from "../sweeps/scheduled";
import { DAY_MS } from "./ranking";
import { createMemoryService } from "./service";

const { env, freshTeam, memoryHarness } = await nodeMemoryTools();

describe("memory cards", () => {
  it("rank exactly like D1 after writes, reinforcement, uses, decay, tier moves and reindex", async () => {
    const h = memoryHarness();
    const fromD1 = createMemoryService({
      store: h.deps.memoryStore,
      index: h.deps.vectorIndex,
      embedder: h.deps.embedder,
      events: h.deps.events,
      newId: h.deps.newId,
      useCards: false,
    });
    const team = freshTeam();
    const t = await mintToken({ secret: env.WARDEN_JWT_SECRET, teamId: team, scopes: ["memory:read", "memory:write"] });
    const reader: Principal = { teamId: team, scopes: new Set(["memory:read"]), subject: "x", expiresAtMs: 0 };
    const ns = [`team/${team}/org`, `team/${team}/project/p`, `team/${team}/task/k`];
    const q = { namespaces: ns, text: "queue consumer backlog after deploy", top_k: 20 };
    const same = async (label: string) => {
      const timing: Record<string, number> = {};
      const viaCards = await h.deps.memory.query(reader, q, h.now(), timing);
      expect(timing.d1, `${label}: every candidate had a card`).toBeUndefined();
      const viaD1 = await fromD1.query(reader, q, h.now());
      expect(viaCards, label).toEqual(viaD1);
      return orFail(viaCards);
    };
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await h.call("POST", "/v1/memory", {
        token: t,
        body: {
          namespace: ns[i % 3],
          class: (["episodic", "kb", "semantic", "working"] as const)[i % 4],
          pinned: i === 5,
          text: `Queue consumer ${i} built a backlog after deploy ${i * 3}; fix ${["drain", "scale", "restart"][i % 3]} it`,
        },
      });
      ids.push(res.json.id);
    }
    expect((await same("after writes")).length).toBeGreaterThan(5);
    h.advance(3 * DAY_MS);
    await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns[0],
        class: "episodic",
        text: "Queue consumer 0 built a backlog after deploy 0; fix drain it",
      },
    });
    await same("after reinforcement");
    h.advance(DAY_MS);
    const near = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns[1], class: "kb", text: "Queue consumer 1 built a backlog after deploy 3; fix scale it." },
    });
    expect(near.json).toMatchObject({ id: ids[1], status: "reinforced" });
    await same("after a near-duplicate reinforcement");
    h.advance(DAY_MS);
    const bulk = await h.call("POST", "/v1/memory/bulk", {
      token: t,
      body: {
        items: [
          {
            namespace: ns[2],
            class: "semantic",
            text: "Queue consumer 2 built a backlog after deploy 6; fix restart it",
          },
        ],
      },
    });
    expect(bulk.json.results[0]).toMatchObject({ id: ids[2], status: "reinforced" });
    await same("after a bulk reinforcement");
    await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [ids[3], ids[7], ids[7]] } });
    await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [ids[7]], run_id: "r1" } });
    await same("after uses");
    h.advance(40 * DAY_MS);
    await runDailySweep(h.deps, h.now());
    await same("after the daily sweep's decay");
    h.advance(60 * DAY_MS);
    await runDailySweep(h.deps, h.now());
    await same("after the tier sweep");
    await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [ids[0]] } });
    const back = await same("after a use brought a memory back");
    expect(back.map((r) => r.id)).toContain(ids[0]);
    // a lost index (vectors and cards) is rebuilt from D1
    await h.deps.vectorIndex.delete(team, ids);
    await h.deps.memory.reindex(team);
    await same("after reindex");
  });
});
