// The memory feature over the production adapters (Vectorize and Workers AI, as limit-honouring fakes) end to end.
import { describe, expect, it } from "vitest";
import { createFakeAi, createFakeVectorize } from "../../../test/fakes/vectorize";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { hashEmbed } from "../../adapters/embed/hashing";
import { createWorkersAiEmbedder } from "../../adapters/embed/workers-ai";
import { createVectorizeIndex } from "../../adapters/vector/vectorize";
import { mintToken } from "../../auth/mint";
import { runDailySweep } from "../sweeps/scheduled";

const { env, freshTeam, memoryHarness } = await nodeMemoryTools();

describe("memory over Vectorize + Workers AI", () => {
  it("writes, dedupes, queries across scopes, boosts and moves tiers within Vectorize's limits", async () => {
    const vectorize = createFakeVectorize();
    const ai = createFakeAi((t) => hashEmbed(t));
    const h = memoryHarness({ vectorIndex: createVectorizeIndex(vectorize), embedder: createWorkersAiEmbedder(ai) });
    const team = freshTeam();
    const t = await mintToken({ secret: env.WARDEN_JWT_SECRET, teamId: team, scopes: ["memory:read", "memory:write"] });
    const text = "Queue consumer stalls when the dead-letter queue is full; drain it before redeploying";
    const a = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text },
    });
    const b = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/project/p1`, class: "semantic", text: `${text} (seen in p1)` },
    });
    const dup = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: `${text}.` },
    });
    expect([a.status, b.status, dup.status]).toEqual([201, 201, 200]);
    expect(dup.json.id).toBe(a.json.id);
    const q = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: {
        namespaces: [`team/${team}/org`, `team/${team}/project/p1`],
        text: "dead-letter queue full consumer stalls",
        classes: ["kb", "semantic"],
      },
    });
    expect(q.status).toBe(200);
    expect(q.json.results.map((r: any) => r.id).sort()).toEqual([a.json.id, b.json.id].sort());
    expect(vectorize.calls.filter((c) => c.startsWith("query:")).every((c) => Number(c.slice(6)) <= 100)).toBe(true);
    expect(ai.calls.every((c) => c.model === "@cf/baai/bge-small-en-v1.5")).toBe(true);
    // a refused write never reaches Workers AI or Vectorize
    const before = { ai: ai.calls.length, vz: vectorize.size() };
    const refused = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: `team/${team}/org`,
        class: "kb",
        text: "token xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
      },
    });
    expect(refused.status).toBe(422);
    expect({ ai: ai.calls.length, vz: vectorize.size() }).toEqual(before);
    // tier moves keep Vectorize in step: idle memories leave the index when they cool down, and come back on use
    expect(vectorize.size()).toBe(2);
    h.advance(91 * 86_400_000);
    await runDailySweep(h.deps, h.now());
    expect(vectorize.size()).toBe(0);
    await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [a.json.id] } });
    expect(vectorize.size()).toBe(1);
  });
});
