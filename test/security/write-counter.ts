// Write counters for the "refused writes nothing" row: D1 triggers counting every row written, and each run object's
// SQLite change count, read together in one call into the object; over workerd's storage or the Node stand-ins.
import type { RunDO } from "../../durable-objects/run-do";

/**
 * Tables written only later, by the queue consumers (docs/storage.md): what an accepted request publishes lands there
 * after its response, so they are not counted. `audit_log` is counted, but not the refusal records the events
 * consumer writes for a refused memory write (that record is the refusal's documented effect), nor MemRL escalation
 * rows (`policy.escalated`), which the EVENTS consumer may write for an earlier accepted decide after a later body's
 * refusal (policy/decision-audit.ts).
 */
const CONSUMER_TABLES = new Set([
  "processed_event",
  "policy_decision",
  "decision_counter",
  "decision_log_batch",
  "decision_log_outage",
  "policy_memory_entry",
  "policy_memory_ledger",
  "retry_adjustment",
  "run_task_outcome",
  "failure_signature",
  "gate_metric",
  "event_dead_letter",
  "slack_message",
]);
const COUNTER = "zz_matrix_writes";

/** Adds a trigger per table and write kind that bumps one counter row (test database only, never a migration). */
async function install(db: D1Database): Promise<void> {
  const all = (
    await db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
      )
      .all<{ name: string; sql: string }>()
  ).results;
  // virtual tables (full-text indexes) and their shadow tables take no triggers; their base tables are counted
  const virtual = all.filter((t) => /^CREATE VIRTUAL/i.test(t.sql)).map((t) => t.name);
  const counted = all
    .map((t) => t.name)
    .filter((n) => !CONSUMER_TABLES.has(n) && n !== COUNTER && !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
  const stmts = [
    `CREATE TABLE IF NOT EXISTS ${COUNTER} (n INTEGER NOT NULL)`,
    `INSERT INTO ${COUNTER} (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM ${COUNTER})`,
  ];
  for (const t of counted)
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      const when =
        t === "audit_log" && op === "INSERT"
          ? " WHEN NEW.action NOT LIKE '%memory_store_failed' AND NEW.action <> 'policy.escalated'"
          : "";
      stmts.push(
        `CREATE TRIGGER IF NOT EXISTS zz_w_${t}_${op.toLowerCase()} AFTER ${op} ON "${t}"${when} BEGIN UPDATE ${COUNTER} SET n = n + 1; END`,
      );
    }
  await db.batch(stmts.map((s) => db.prepare(s)));
}

/** How the counter reaches storage: the D1 database and a call into a run's object (workerd's or the Node stand-in's). */
export type WriteStores = {
  db: D1Database;
  runIn: <R>(runId: string, fn: (instance: RunDO, state: DurableObjectState) => Promise<R>) => Promise<R>;
};

/** The "refused writes nothing" counters over one D1 database and its run objects. */
export function writeCounter({ db, runIn }: WriteStores) {
  let installed = false;

  /**
   * How many writes D1 and each run object have taken so far, as one string: equal before and after a request means the
   * request wrote nothing. Each run's outbox is flushed first, so a write it defers is counted too.
   */
  const writes = async (runIds: string[]): Promise<string> => {
    if (!installed) {
      await install(db);
      installed = true;
    }
    const d1 = () =>
      db
        .prepare(`SELECT n FROM ${COUNTER}`)
        .first<{ n: number }>()
        .then((r) => r?.n ?? -1);
    if (runIds.length === 0) return String(await d1());
    const parts: number[] = [];
    for (const [i, runId] of runIds.entries())
      parts.push(
        // one call into the object per run; the last also reads the D1 counter, after the outboxes have flushed
        ...(await runIn(runId, async (instance, state) => {
          await instance.engine.idle();
          const n = state.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;
          return i === runIds.length - 1 ? [n, await d1()] : [n];
        })),
      );
    return parts.join(":");
  };

  /** The counters once an accepted request's follow-up writes (other runs' outboxes) have landed: two equal reads. */
  const settledWrites = async (runIds: string[]): Promise<string> => {
    let last = await writes(runIds);
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const next = await writes(runIds);
      if (next === last) return next;
      last = next;
    }
    throw new Error("writes never settled after an accepted request");
  };
  return { writes, settledWrites };
}
