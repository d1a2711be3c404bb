// POST /v1/policy-memory/entries/:entry_id/reset: an admin restarts learning the circular-learning breaker stopped,
// in Node (D1 stand-in, batches delivered to the EVENTS consumer; rows read back through the owning stores).
import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { runCompleted } from "../../../test/learning-events";
import { nodeHelpers } from "../../../test/node-d1/app";
import { testDepsOver } from "../../../test/node-d1/consumers";
import { createD1AuditLog } from "../audit/store/audit-log";
import { contextHash } from "./consume";
import { entryKey } from "./domain";
import { parseEntry } from "./policy-memory";
import { createD1LearningStore } from "./store/learning-store";
import { policyMemoryLedger } from "./store/tables";

const NOW = Date.UTC(2026, 10, 22, 12);
const warden = await nodeHelpers();
const { token } = warden;
type Fixed = ReturnType<typeof testDepsOver>;

const learningStore = createD1LearningStore(warden.db);
const auditLog = createD1AuditLog(drizzle(warden.db));
/** the team's entry for a skill (default context) as stored, read by the learning store's natural-key lookup */
const entry = async (team: string, skill: string) => {
  const key = { skill, contextHash: await contextHash(null) };
  const state = await learningStore.loadLearningState(team, "read", [key], []);
  return state.entries.get(entryKey(key.skill, key.contextHash))?.row as Record<string, number | string>;
};
/** skill s's ledger rows, oldest first: the learning feature's own table, read typed (no store read lists them) */
const ledger = (team: string) => {
  const l = policyMemoryLedger;
  return drizzle(warden.db)
    .select({ run_id: l.runId, seq: l.seq, change: l.change })
    .from(l)
    .where(and(eq(l.teamId, team), eq(l.skillName, "s")))
    .orderBy(asc(l.seq));
};
/** the team's audit rows, oldest first, through the audit log's store */
const audits = async (team: string) =>
  (await auditLog.list(team, { limit: 100 })).entries.reverse().map((a) => ({
    actor: a.actor,
    action: a.action,
    subject_type: a.subjectType,
    subject_id: a.subjectId,
    metadata: a.metadata,
  }));

/** three identical failing outcomes in a row: the breaker stops the entry */
async function stoppedEntry(label: string) {
  const deps = testDepsOver(warden, NOW);
  const team = `${label}-${crypto.randomUUID().slice(0, 8)}`;
  const fail = (i: number) =>
    runCompleted(team, `run-${i}`, [{ skill: "s", outcome: "failure", failure_class: "phase_stall" }], NOW + i);
  await deps.deliver([fail(1), fail(2), fail(3)]);
  const row = await entry(team, "s");
  expect(row).toMatchObject({ failure_count: 3, learning_stopped: 1 });
  return { deps, team, entryId: String(row.entry_id) };
}

/**
 * Forces a ledger desync through the learning store: the stored entry says failure_count 99 at its ledger_seq 3 while a
 * newer ledger row (seq 4) still records the old state, so the ledger no longer describes the row.
 */
async function desync(team: string, entryId: string) {
  const store = learningStore;
  const stored = await store.entryById(team, entryId);
  const parsed = parseEntry(stored?.row);
  if (!stored?.head || !parsed.ok) throw new Error(`desync: entry ${entryId} not found or unreadable`);
  const runId = `desync:${entryId}`;
  const forced = await store.commitLearning({
    eventId: runId,
    teamId: team,
    runId,
    now: NOW,
    audit: null,
    writes: [
      {
        target: "entry",
        ledgerId: `pml_desync_${entryId}`,
        teamId: team,
        runId,
        entryId,
        ledgerKey: parsed.value.skill_name,
        seq: stored.head.seq + 1,
        change: { kind: "test_desync", after: stored.head.after },
        createdAt: NOW,
        expect: { kind: "seq", seq: parsed.value.ledger_seq },
        state: { ...parsed.value, failure_count: 99 },
      },
    ],
  });
  expect(forced.ok).toBe(true);
}

const reset = async (deps: Fixed, team: string, entryId: string, scopes = true) =>
  deps.callApp("POST", `/v1/policy-memory/entries/${entryId}/reset`, {
    token: await token(team, scopes ? ["policy:admin"] : ["policy:decide", "runs:read"], { sub: "admin-ann" }),
  });

describe("POST /v1/policy-memory/entries/:entry_id/reset", () => {
  it("restarts a stopped entry through the ledger, keeps its counters, audits the admin, and learning resumes", async () => {
    const { deps, team, entryId } = await stoppedEntry("brk");
    const res = await reset(deps, team, entryId);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ entry_id: entryId, skill_name: "s", learning_stopped: false, ledger_seq: 4 });

    expect(await entry(team, "s")).toMatchObject({
      failure_count: 3,
      success_count: 0,
      learning_stopped: 0,
      recent_outcomes: "[]",
      ledger_seq: 4,
    });
    const head = (await ledger(team)).at(-1);
    expect(head?.seq).toBe(4);
    expect(head?.change).toMatchObject({
      kind: "breaker_reset",
      by: "admin-ann",
      before: { learning_stopped: true, ledger_seq: 3 },
      after: { learning_stopped: false, ledger_seq: 4, failure_count: 3 },
    });
    const audit = (await audits(team)).filter((a) => a.action === "policy_memory.breaker_reset");
    expect(audit).toEqual([
      expect.objectContaining({ actor: "admin-ann", subject_type: "policy_memory_entry", subject_id: entryId }),
    ]);
    expect(res.json.audit_id).toBeTruthy();

    // the next run's outcome is learned again (the ledger still describes the entry: no desync)
    await deps.deliver([runCompleted(team, "run-5", [{ skill: "s", outcome: "success" }], NOW + 5)]);
    expect(await entry(team, "s")).toMatchObject({ success_count: 1, failure_count: 3, ledger_seq: 5 });
  });

  it("refuses an entry that still learns with 409 and changes nothing", async () => {
    const deps = testDepsOver(warden, NOW);
    const team = `brk-live-${crypto.randomUUID().slice(0, 8)}`;
    await deps.deliver([runCompleted(team, "run-1", [{ skill: "s", outcome: "success" }], NOW)]);
    const before = await entry(team, "s");
    const res = await reset(deps, team, String(before.entry_id));
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: "conflict", message: expect.stringContaining("still learning") });
    expect(await entry(team, "s")).toEqual(before);
    expect(await ledger(team)).toHaveLength(1);
    expect(await audits(team)).toEqual([]);
  });

  it("refuses an entry whose ledger does not describe it (409, nothing written)", async () => {
    const { deps, team, entryId } = await stoppedEntry("brk-desync");
    await desync(team, entryId);
    const ledgerBefore = await ledger(team);
    const res = await reset(deps, team, entryId);
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain("ledger");
    expect(await entry(team, "s")).toMatchObject({ learning_stopped: 1, ledger_seq: 3 });
    expect(await ledger(team)).toEqual(ledgerBefore);
    expect(await audits(team)).toEqual([]);
  });

  it("answers 404 for an unknown entry and for another team's entry", async () => {
    const { deps, entryId } = await stoppedEntry("brk-own");
    const other = `brk-other-${crypto.randomUUID().slice(0, 8)}`;
    expect((await reset(deps, other, entryId)).status).toBe(404);
    const unknown = await reset(deps, other, "pme_nope");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe("not_found");
  });

  it("needs policy:admin (403) and a printable entry id (400)", async () => {
    const { deps, team, entryId } = await stoppedEntry("brk-scope");
    const res = await reset(deps, team, entryId, false);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
    const bad = await reset(deps, team, "a%20b");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    expect(await entry(team, "s")).toMatchObject({ learning_stopped: 1 });
  });
});
