// The learning feature's memory ports, connected to memory: YARLI task memories, index sync, and the daily sweep.
import { describe, expect, it } from "vitest";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { hashEmbed } from "../../adapters/embed/hashing";
import type { Principal } from "../../auth/tokens";
import { orFail } from "../../errors";
import { TIER_RULES } from "../sweeps/memory-tiers";
import { createCardRefreshingMaintenance } from "./learning-hooks";
import { DAY_MS } from "./ranking";
import { createMemoryService } from "./service";

const { freshTeam, memoryHarness, teamMemoryCount } = await nodeMemoryTools();

describe("deps.taskMemory (YARLI task memories)", () => {
  it("stores a task.failed lesson through the guarded write, reinforcing a repeat", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const lesson = {
      namespace: `team/${team}/project/p1`,
      class: "semantic" as const,
      text: "task deploy-api failed: reason bucket timeout, exit-code bucket 1xx",
      tags: ["task.failed", "timeout"],
      metadata: { task_key: "deploy-api", reason: "timeout" },
    };
    const first = await h.deps.taskMemory.store(team, lesson);
    expect(first).toMatchObject({ ok: true });
    const again = await h.deps.taskMemory.store(team, lesson);
    expect(again).toEqual(first);
    const reader: Principal = { teamId: team, scopes: new Set(["memory:read"]), subject: "x", expiresAtMs: 0 };
    const found = await h.deps.memory.query(
      reader,
      { namespaces: [`team/${team}/project/p1`], text: "deploy-api timeout" },
      h.now(),
    );
    expect(orFail(found).map((r) => r.id)).toEqual([(first as { id: string }).id]);
  });

  it("returns the guard's refusal with rule ids and leaves the announcement to the consumer", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const result = await h.deps.taskMemory.store(team, {
      namespace: `team/${team}/run/r1`,
      class: "episodic",
      text: "task blocked: fetch https://ci.acme.com/job/42 with token ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      tags: [],
      metadata: {},
    });
    expect(result).toMatchObject({ ok: false, code: "redaction_required" });
    expect(!result.ok && result.ruleIds).toEqual(expect.arrayContaining(["secret.github_token", "url.raw"]));
    expect(h.published).toEqual([]);
    expect(await teamMemoryCount(team)).toBe(0);
  });
});

describe("deps.memoryIndexSync and the daily sweep", () => {
  it("removes memories that left hot from the index, and keeps cards equal to the team object after the sweep's decay", async () => {
    const h = memoryHarness();
    const plain = createMemoryService({
      store: h.deps.memoryStore,
      index: h.deps.vectorIndex,
      embedder: h.deps.embedder,
      events: h.deps.events,
      newId: h.deps.newId,
      useCards: false,
    });
    const maintenance = createCardRefreshingMaintenance(h.deps.memoryMaintenanceStore, h.deps.memory);
    const team = freshTeam();
    const writer: Principal = { teamId: team, scopes: new Set(["memory:write"]), subject: "w", expiresAtMs: 0 };
    const ns = `team/${team}/org`;
    const ids: string[] = [];
    for (const [i, cls] of (["episodic", "kb", "semantic"] as const).entries()) {
      const w = await h.deps.memory.write(
        writer,
        { namespace: ns, class: cls, text: `Backup job ${i} slowed the primary during peak` },
        h.now(),
        () => {},
      );
      ids.push(orFail(w).id);
    }
    await h.deps.memory.use(writer, [ids[1] as string], undefined, h.now());
    const q = { namespaces: [ns], text: "backup job slowed primary", top_k: 10 };
    h.advance(40 * DAY_MS);
    const report = await maintenance.sweepTeam(team, h.now(), TIER_RULES);
    expect(report.decayed).toBeGreaterThan(0);
    const timing: Record<string, number> = {};
    const viaCards = await h.deps.memory.query(writer, q, h.now(), timing);
    expect(timing.d1).toBeUndefined();
    expect(viaCards).toEqual(await plain.query(writer, q, h.now()));
    h.advance(60 * DAY_MS);
    const later = await maintenance.sweepTeam(team, h.now(), TIER_RULES);
    expect(later.tierLeftIndex).toContain(ids[0]);
    await h.deps.memoryIndexSync.remove(team, later.tierLeftIndex);
    const indexed = (await h.deps.vectorIndex.query(team, hashEmbed("backup job"), { topK: 10 })).map((m) => m.id);
    expect(indexed).not.toContain(ids[0]);
    expect(await h.deps.memory.query(writer, q, h.now())).toEqual(await plain.query(writer, q, h.now()));
  });
});
