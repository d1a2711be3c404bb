// Bench-only HTTP hooks (/__bench/*): run the consumer and the memory sweep inside workerd against its local D1.
// Served only by bench/worker.ts, the entry that `npm run bench` starts; the production Worker has none of this.
import type { TaskSignalEvent } from "../contracts/internal-events";
import type { Deps } from "../src/deps";
import { applyTaskEvents, type TaskBatchMode } from "../src/features/learning/consume";
import { contentHash } from "../src/features/memory/content";
import { scanFields } from "../src/features/memory/guard/guard";
import { TIER_RULES } from "../src/features/sweeps/memory-tiers";
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

/** Deterministic memories spread over 400 days: tiers, classes, pins, task namespaces, one importance row each. */
async function seedMemories(db: D1Database, from: number, count: number, now: number) {
  let rnd = 42 + from;
  const random = () => {
    rnd = (rnd * 48_271) % 2_147_483_647;
    return rnd / 2_147_483_647;
  };
  const docs: unknown[][] = [];
  const importance: unknown[][] = [];
  for (let i = from; i < from + count; i++) {
    const id = `mem-${String(i).padStart(7, "0")}`;
    const team = `team-${i % 20}`;
    const created = now - Math.floor(random() * 400 * DAY);
    const r = random();
    const tier = r < 0.7 ? "hot" : r < 0.9 ? "warm" : "cold";
    const cls = ["episodic", "semantic", "kb", "working"][i % 4] as string;
    const ns = i % 10 === 0 ? `team/${team}/task/t${i % 300}/notes` : `team/${team}/org/notes`;
    const tierChanged = created + Math.floor(random() * (now - created));
    docs.push([id, team, ns, cls, "x", "[]", "{}", random() < 0.05 ? 1 : 0, tier, tierChanged, created]);
    const used = created + Math.floor(random() * (now - created));
    importance.push([id, "role:dev", Math.floor(random() * 200), used, used]);
  }
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < docs.length; i += 9) {
    const chunk = docs.slice(i, i + 9);
    statements.push(
      db
        .prepare(
          `INSERT INTO mem_doc (id, team_id, namespace, class, text, tags, metadata, pinned, tier, tier_changed_at, created_at)
           VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
        )
        .bind(...chunk.flat()),
    );
  }
  for (let i = 0; i < importance.length; i += 19) {
    const chunk = importance.slice(i, i + 19);
    statements.push(
      db
        .prepare(
          `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at, last_used_at)
           VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(", ")}`,
        )
        .bind(...chunk.flat()),
    );
  }
  for (let i = 0; i < statements.length; i += 200) await db.batch(statements.slice(i, i + 200));
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
    await seedMemories(db, Number(body.from ?? 0), Number(body.count ?? 0), Number(body.now));
    return json({ ok: true });
  }
  if (path === "/__bench/memory-seed") {
    return json({ seeded: await seedMemoryTexts(deps, db, body as unknown as MemorySeed) });
  }
  if (path === "/__bench/memory-sweep") {
    const now = Number(body.now);
    const tiers = await deps.memoryMaintenance.decayAndTier(now, TIER_RULES);
    const expired = await deps.memoryMaintenance.expireTaskNamespaces(now, TIER_RULES);
    return json({ ...tiers, leftIndex: tiers.leftIndex.length, expired: expired.deleted });
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
