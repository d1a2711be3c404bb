// Bench-only HTTP hooks (/__bench/*): run the consumer and the memory sweep inside workerd against its local D1.
// Served only by bench/worker.ts, the entry that `npm run bench` starts; the production Worker has none of this.
import type { TaskSignalEvent } from "../contracts/internal-events";
import type { Deps } from "../src/deps";
import { applyTaskEvents, type TaskBatchMode } from "../src/features/learning/consume";
import { contentHash } from "../src/features/memory/content";
import { scanFields } from "../src/features/memory/guard/guard";
import { TIER_RULES } from "../src/features/sweeps/memory-tiers";
import type { MemDoc, MemoryClass } from "../src/ports/memory-store";
import { type MemorySeed, seedMemoryTexts } from "./memory-seed";

const DAY = 86_400_000;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function taskBatch(prefix: string, batch: number, size: number): TaskSignalEvent[] {
  return Array.from({ length: size }, (_, i): TaskSignalEvent => {
    const n = batch * size + i;
    return {
      event_id: `${prefix}-${n}`,
      ...(i % 10 === 9 ? { type: "task.blocked" as const } : { type: "task.failed" as const }),
      team_id: `bench-${prefix}`,
      run_id: `run-${Math.floor(n / 20)}`,
      task_id: `task-${n % 20}`,
      task_key: `build:${n % 7}`,
      reason: ["test_failure", "tool_error", "timeout"][n % 3] as string,
      exit_code_bucket: `exit_${n % 4}`,
      skill: `skill-${n % 5}`,
      cost_units: 100 + (n % 50),
      occurred_at: n,
    };
  });
}

/** Deterministic memories of 20 teams spread over 400 days: tiers, classes, pins, task namespaces, importance. */
async function seedMemories(deps: Deps, from: number, count: number, now: number) {
  let rnd = 42 + from;
  const random = () => {
    rnd = (rnd * 48_271) % 2_147_483_647;
    return rnd / 2_147_483_647;
  };
  const docs: MemDoc[] = [];
  for (let i = from; i < from + count; i++) {
    const team = `team-${i % 20}`;
    const createdAt = now - Math.floor(random() * 400 * DAY);
    const r = random();
    const tier = r < 0.7 ? "hot" : r < 0.9 ? "warm" : "cold";
    const pinned = random() < 0.05;
    const tierChangedAt = createdAt + Math.floor(random() * (now - createdAt));
    docs.push({
      id: `mem-${String(i).padStart(7, "0")}`,
      teamId: team,
      namespace: i % 10 === 0 ? `team/${team}/task/t${i % 300}/notes` : `team/${team}/org/notes`,
      cls: (["episodic", "semantic", "kb", "working"] as const)[i % 4] as MemoryClass,
      text: "x",
      tags: [],
      metadata: {},
      pinned,
      tier,
      supersedes: null,
      // the team importance row starts at the doc's importance and its creation time
      importance: Math.floor(random() * 200),
      createdAt,
      refreshedAt: createdAt,
      lastUsedAt: null,
      tierChangedAt,
      expiresAt: null,
      reinforceCount: 0,
      contentHash: null,
    });
  }
  // one insert per team object per 500 memories (the write path's group commit is one RPC per team too)
  for (let i = 0; i < docs.length; i += 500) await deps.memoryStore.insertDocs(docs.slice(i, i + 500));
}

export async function benchHooks(request: Request, deps: Deps, db: D1Database): Promise<Response> {
  const path = new URL(request.url).pathname;
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  if (path === "/__bench/consumer") {
    const mode = body.mode === "per-message" ? "per-message" : ("batch" as TaskBatchMode);
    const prefix = String(body.prefix ?? crypto.randomUUID());
    const size = Number(body.size ?? 100);
    const silent = { ...deps, taskMemory: { store: async () => ({ ok: true as const }) } };
    let failed = 0;
    for (let b = 0; b < Number(body.batches ?? 1); b++) {
      const out = await applyTaskEvents(taskBatch(prefix, b, size), silent, { applied: () => {} }, mode);
      failed += out.size;
    }
    return json({ failed });
  }
  if (path === "/__bench/seed-memories") {
    await seedMemories(deps, Number(body.from ?? 0), Number(body.count ?? 0), Number(body.now));
    return json({ ok: true });
  }
  if (path === "/__bench/memory-seed") {
    return json({ seeded: await seedMemoryTexts(deps, body as unknown as MemorySeed) });
  }
  if (path === "/__bench/d1-memory-rows") {
    // the memory rows D1 holds (its own mem tables, and the team list the sweep walks): a write should add none
    const row = await db
      .prepare(
        `SELECT (SELECT count(*) FROM mem_doc) + (SELECT count(*) FROM mem_actor_importance)
          + (SELECT count(*) FROM mem_use_event) + (SELECT count(*) FROM memory_team) AS c`,
      )
      .first<{ c: number }>();
    return json({ rows: row?.c ?? 0 });
  }
  if (path === "/__bench/memory-sweep") {
    const now = Number(body.now);
    const total = { decayed: 0, toWarm: 0, toCold: 0, deleted: 0, expired: 0, leftIndex: 0, teams: 0 };
    for (const team of await deps.memoryMaintenance.teamsDue(now, 10_000)) {
      const c = await deps.memoryMaintenance.sweepTeam(team, now, TIER_RULES);
      total.decayed += c.decayed;
      total.toWarm += c.toWarm;
      total.toCold += c.toCold;
      total.deleted += c.deleted;
      total.expired += c.expired;
      total.leftIndex += c.tierLeftIndex.length + c.expiryLeftIndex.length;
      total.teams++;
    }
    return json(total);
  }
  if (path === "/__bench/write-stage") {
    // The CPU stages of a memory write, run `n` times inside workerd: the caller times the request against
    // stage "none" (workerd's clock does not advance during CPU work, so the Worker cannot time them itself).
    const n = Number(body.n ?? 1);
    const text = (i: number) => `${String(body.text ?? "")} ${i}`;
    const ns = "team/bench-stages/project/writes";
    for (let i = 0; i < n; i++) {
      if (body.stage === "guard")
        await scanFields([
          { path: "namespace", value: ns },
          { path: "text", value: text(i) },
        ]);
      else if (body.stage === "embed") await deps.embedder.embed([text(i)]);
      else if (body.stage === "hash") await contentHash(ns, "episodic", text(i));
    }
    return json({ ok: true });
  }
  return json({ error: "unknown bench hook" }, 404);
}
