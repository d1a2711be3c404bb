// The EVENTS consumer over the D1 stand-in (Node): idempotency, per-message ack/retry, policy-memory write rules and
// failure modes; rows read back through the owner features' drizzle tables.
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../../test/fakes/queues";
import { DAY, runCompleted, taskEvent } from "../../../test/learning-events";
import { nodeHelpers } from "../../../test/node-d1/app";
import { deliverBatch, testDepsOver } from "../../../test/node-d1/consumers";
import { bySqlName, tableRows } from "../../../test/node-d1/table-rows";
import type { Deps } from "../../deps";
import { auditLog } from "../audit/store/tables";
import { consumeEvents, EVENT_SUBSCRIBERS, type Subscriber, type SubscriberTable } from "../events/consumer";
import { consumeDeadLetters } from "../events/dead-letters";
import { eventDeadLetters } from "../events/store/tables";
import { DEFAULT_CONTEXT_HASH } from "./policy-memory";
import { snapshotPolicyMemory } from "./snapshot";
import {
  failureSignatures,
  gateMetrics,
  policyMemoryEntries,
  policyMemoryLedger,
  processedEvents,
  retryAdjustments,
  runTaskOutcomes,
} from "./store/tables";

const NOW = Date.UTC(2026, 10, 22, 12);
const h = await nodeHelpers();
const recordRows = tableRows(h);
const db = drizzle(h.db);

/** test/learning.ts's testDeps(now) over this file's warden */
const testDeps = (now: number, overrides: Partial<Deps> = {}) => testDepsOver(h, now, overrides);
/** test/learning.ts's deliver: one batch to the EVENTS consumer over `deps` */
const deliver = (deps: Deps, bodies: unknown[], attempts = 1, table?: SubscriberTable) =>
  deliverBatch("warden-events", bodies, attempts, (batch) => consumeEvents(batch, deps, table));

/** a team's policy-memory entry row for one skill, by column name (undefined when there is none) */
const entry = async (team: string, skill: string) =>
  (
    await recordRows(
      policyMemoryEntries,
      and(eq(policyMemoryEntries.teamId, team), eq(policyMemoryEntries.skillName, skill)),
      bySqlName(policyMemoryEntries),
    )
  )[0];
/** a team's ledger rows by created_at, then seq */
const ledger = async (team: string) =>
  (
    await recordRows(policyMemoryLedger, eq(policyMemoryLedger.teamId, team), {
      created_at: policyMemoryLedger.createdAt,
      run_id: policyMemoryLedger.runId,
      skill_name: policyMemoryLedger.skillName,
      seq: policyMemoryLedger.seq,
      change: policyMemoryLedger.change,
    })
  )
    .sort((x, y) => x.created_at - y.created_at || x.seq - y.seq)
    .map(({ created_at: _, ...row }) => row);
const teamRows = (table: typeof runTaskOutcomes | typeof policyMemoryEntries, team: string) =>
  recordRows(table, eq(table.teamId, team));
const processed = (eventId: string) => recordRows(processedEvents, eq(processedEvents.eventId, eventId));
const audits = (team: string) =>
  recordRows(auditLog, eq(auditLog.teamId, team), { action: auditLog.action, metadata: auditLog.metadata });
/** another writer changing a team's entries behind the consumer's back */
const updateEntries = (team: string, set: Partial<typeof policyMemoryEntries.$inferInsert>, skill?: string) =>
  db
    .update(policyMemoryEntries)
    .set(set)
    .where(and(eq(policyMemoryEntries.teamId, team), skill ? eq(policyMemoryEntries.skillName, skill) : undefined));

describe("idempotency by event_id", () => {
  it("applies a run.completed delivered three times once", async () => {
    const { deps } = testDeps(NOW);
    const body = runCompleted("team-i1", "run-1", [{ skill: "code.test", outcome: "success" }], NOW);
    for (let i = 1; i <= 3; i++) {
      expect(await deliver(deps, [body], i)).toEqual({ acked: [body.event_id], retried: [] });
    }
    expect(await entry("team-i1", "code.test")).toMatchObject({ success_count: 1, failure_count: 0, ledger_seq: 1 });
    expect(await ledger("team-i1")).toHaveLength(1);
  });

  it("applies a task.failed delivered three times (and twice within one batch) once", async () => {
    const { deps } = testDeps(NOW);
    const body = taskEvent("task.failed", "team-i2", "run-1", "task-1", "tf-1", { reason: "tool_error" });
    expect(await deliver(deps, [body, body])).toEqual({ acked: ["tf-1", "tf-1"], retried: [] });
    await deliver(deps, [body], 2);
    await deliver(deps, [body], 3);
    const [sig] = await recordRows(failureSignatures, eq(failureSignatures.teamId, "team-i2"));
    expect(sig?.count).toBe(1);
    const [staged] = await teamRows(runTaskOutcomes, "team-i2");
    expect(staged?.failures).toBe(1);
    expect(await processed("tf-1")).toHaveLength(1);
  });

  it("writes the idempotency key and the effect together: a failed write leaves neither", async () => {
    const { deps } = testDeps(NOW);
    const store = deps.learningStore;
    // a NULL cost violates run_task_outcome.cost_units NOT NULL inside the batch, after the key's insert
    const failing = {
      ...deps,
      learningStore: {
        ...store,
        applyTaskSignals: (signals: Parameters<typeof store.applyTaskSignals>[0], now: number) =>
          store.applyTaskSignals(
            signals.map((s) => ({ ...s, costUnits: null as unknown as number })),
            now,
          ),
      },
    };
    const bad = taskEvent("task.completed", "team-i3", "run-1", "task-1", "tc-bad");
    expect(await deliver(failing, [bad])).toEqual({ acked: [], retried: ["tc-bad"] });
    expect(await processed("tc-bad")).toHaveLength(0);
    expect(await teamRows(runTaskOutcomes, "team-i3")).toHaveLength(0);
  });
});

describe("per-message ack and retry", () => {
  it("retries only the messages not applied when the consumer fails half-way through a batch", async () => {
    const { deps } = testDeps(NOW);
    const bodies = [1, 2, 3, 4, 5].map((i) =>
      runCompleted("team-half", `run-${i}`, [{ skill: `skill-${i}`, outcome: "success" }], NOW),
    );
    let commits = 0;
    const flaky = {
      ...deps,
      learningStore: {
        ...deps.learningStore,
        commitLearning: async (c: Parameters<typeof deps.learningStore.commitLearning>[0]) => {
          if (++commits === 3) throw new Error("D1 went away");
          return deps.learningStore.commitLearning(c);
        },
      },
    };
    const first = await deliver(flaky, bodies);
    expect(first.retried).toEqual(["rc-team-half-run-3"]);
    expect(first.acked).toEqual([
      "rc-team-half-run-1",
      "rc-team-half-run-2",
      "rc-team-half-run-4",
      "rc-team-half-run-5",
    ]);
    expect((await teamRows(policyMemoryEntries, "team-half")).length).toBe(4);
    // the queue redelivers only the retried message; it applies now, and nothing else doubles
    expect(await deliver(deps, [bodies[2]], 2)).toEqual({ acked: ["rc-team-half-run-3"], retried: [] });
    const all = await recordRows(policyMemoryEntries, eq(policyMemoryEntries.teamId, "team-half"), {
      success_count: policyMemoryEntries.successCount,
    });
    expect(all.map((r) => r.success_count)).toEqual([1, 1, 1, 1, 1]);
  });

  it("acks the messages a thrown subscriber had already applied and retries the rest", async () => {
    const { deps } = testDeps(NOW);
    // a subscriber that dies half-way, in place of memory_store_failed's own for this delivery
    const dying: Subscriber<"memory_store_failed"> = {
      name: "test.dying",
      async apply(events, _deps, ctx) {
        ctx.applied((events[0] as { event_id: string }).event_id);
        throw new Error("died after the first event");
      },
    };
    const bodies = ["h-1", "h-2", "h-3"].map((event_id) => ({
      event_id,
      type: "memory_store_failed",
      team_id: "t",
      occurred_at: NOW,
      source: "memory.write",
      code: "rejected",
      rule_ids: [],
    }));
    const table = { ...EVENT_SUBSCRIBERS, memory_store_failed: [dying] };
    expect(await deliver(deps, bodies, 1, table)).toEqual({ acked: ["h-1"], retried: ["h-2", "h-3"] });
  });

  it("retries only the run whose learning failed, acking the others", async () => {
    const { deps } = testDeps(NOW);
    const bodies = [1, 2, 3].map((i) =>
      runCompleted("team-throw", `run-${i}`, [{ skill: "s", outcome: "success" }], NOW),
    );
    let loads = 0;
    const throwing = {
      ...deps,
      learningStore: {
        ...deps.learningStore,
        loadLearningState: async (...args: Parameters<typeof deps.learningStore.loadLearningState>) => {
          if (++loads === 2) throw new Error("boom");
          return deps.learningStore.loadLearningState(...args);
        },
      },
    };
    const r = await deliver(throwing, bodies);
    expect(r.acked).toEqual(["rc-team-throw-run-1", "rc-team-throw-run-3"]);
    expect(r.retried).toEqual(["rc-team-throw-run-2"]);
  });

  it("falls back to one write per event when the batch write fails, so one bad event fails alone", async () => {
    const { deps } = testDeps(NOW);
    const good = [1, 2, 3].map((i) => taskEvent("task.failed", "team-fb", "run-1", `task-${i}`, `fb-${i}`));
    const poison = taskEvent("task.failed", "team-fb", "run-1", "task-x", "fb-x");
    const store = deps.learningStore;
    const picky = {
      ...deps,
      learningStore: {
        ...store,
        applyTaskSignals: async (signals: Parameters<typeof store.applyTaskSignals>[0], now: number) => {
          if (signals.some((s) => s.eventId === "fb-x")) throw new Error("constraint failed");
          return store.applyTaskSignals(signals, now);
        },
      },
    };
    const r = await deliver(picky, [...good, poison]);
    expect(r.retried).toEqual(["fb-x"]);
    expect(r.acked.sort()).toEqual(["fb-1", "fb-2", "fb-3"]);
    expect(await teamRows(runTaskOutcomes, "team-fb")).toHaveLength(3);
  });

  it("retries a malformed body of a known type (so it reaches the dead-letter queue) and acks unknown types", async () => {
    const { deps } = testDeps(NOW);
    const r = await deliver(deps, [
      { event_id: "bad-1", type: "run.completed", team_id: "t" },
      { event_id: "bad-2", type: "task.failed", team_id: "t", run_id: "r" },
      { event_id: "odd-1", type: "something.else", team_id: "t" },
    ]);
    expect(r).toEqual({ acked: ["odd-1"], retried: ["bad-1", "bad-2"] });
  });
});

describe("policy memory write rules", () => {
  it("W1: task events stage outcomes but only run.completed writes policy memory", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-w1";
    await deliver(deps, [
      taskEvent("task.failed", team, "run-1", "t1", "w1-a", {
        skill: "code.test",
        failure_class: "vibe_fail",
        attempt: 1,
      }),
      taskEvent("task.completed", team, "run-1", "t1", "w1-b", { skill: "code.test", attempt: 2, cost_units: 50 }),
      taskEvent("task.completed", team, "run-1", "t2", "w1-c", { skill: "code.edit", cost_units: 20 }),
    ]);
    expect(await teamRows(policyMemoryEntries, team)).toHaveLength(0);
    await deliver(deps, [
      { event_id: "w1-run", type: "run.completed", team_id: team, run_id: "run-1", occurred_at: NOW },
    ]);
    expect(await entry(team, "code.test")).toMatchObject({ success_count: 1, avg_cost_units: 50 });
    expect(await entry(team, "code.edit")).toMatchObject({ success_count: 1 });
    // the staged rows are consumed by the learning batch
    expect(await teamRows(runTaskOutcomes, team)).toHaveLength(0);
    const [vibe] = await recordRows(
      retryAdjustments,
      and(eq(retryAdjustments.teamId, team), eq(retryAdjustments.failureClass, "vibe_fail")),
      { recovered_count: retryAdjustments.recoveredCount },
    );
    expect(vibe?.recovered_count).toBe(1);
  });

  it("W2: the ledger row describes the change and the entry points at it", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-w2";
    await deliver(deps, [runCompleted(team, "run-1", [{ skill: "s", outcome: "success", cost_units: 10 }], NOW)]);
    await deliver(deps, [
      runCompleted(team, "run-2", [{ skill: "s", outcome: "failure", failure_class: "vibe_fail" }], NOW + 1),
    ]);
    const all = await ledger(team);
    // run-2 also logged its retry evidence for vibe_fail under its own ledger key
    expect(all.map((r) => r.skill_name).sort()).toEqual(["retry:vibe_fail", "s", "s"]);
    const l = all.filter((r) => r.skill_name === "s");
    expect(l.map((r) => [r.run_id, r.seq])).toEqual([
      ["run-1", 1],
      ["run-2", 2],
    ]);
    const change = l[1]?.change;
    expect(change).toMatchObject({
      kind: "update",
      before: { success_count: 1, failure_count: 0, ledger_seq: 1 },
      after: { success_count: 1, failure_count: 1, ledger_seq: 2 },
      outcome: { success: false, failure_class: "vibe_fail" },
    });
    expect(await entry(team, "s")).toMatchObject({ ledger_seq: 2, success_count: 1, failure_count: 1 });
  });

  it("W2: a state that moved between read and write aborts the whole batch (no ledger row, no key) and retries", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-race";
    await deliver(deps, [runCompleted(team, "run-1", [{ skill: "s", outcome: "success" }], NOW)]);
    const store = deps.learningStore;
    const racing = {
      ...deps,
      learningStore: {
        ...store,
        loadLearningState: async (...args: Parameters<typeof store.loadLearningState>) => {
          const state = await store.loadLearningState(...args);
          // another writer changes the entry after this consumer read it
          await updateEntries(team, { ledgerSeq: 99 });
          return state;
        },
      },
    };
    const body = runCompleted(
      team,
      "run-2",
      [
        { skill: "s", outcome: "success" },
        { skill: "t", outcome: "success" },
      ],
      NOW,
    );
    expect(await deliver(racing, [body])).toEqual({ acked: [], retried: [body.event_id] });
    expect((await ledger(team)).map((r) => r.run_id)).toEqual(["run-1"]);
    expect(await entry(team, "t")).toBeUndefined();
    expect(await processed(body.event_id)).toHaveLength(0);
  });

  it("W4: a run changes each skill once, even across two run.completed events for it", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-w4";
    await deliver(deps, [
      runCompleted(
        team,
        "run-1",
        [
          { skill: "s", outcome: "success" },
          { skill: "s", outcome: "failure", failure_class: "vibe_fail" },
        ],
        NOW,
      ),
    ]);
    expect(await entry(team, "s")).toMatchObject({ success_count: 0, failure_count: 1 });
    await deliver(deps, [runCompleted(team, "run-1", [{ skill: "s", outcome: "success" }], NOW, "rc-again")]);
    expect(await entry(team, "s")).toMatchObject({ success_count: 0, failure_count: 1, ledger_seq: 1 });
    const audit = await audits(team);
    expect(audit.map((a) => a.action)).toEqual(["policy_memory.learning_skipped"]);
    expect(JSON.stringify(audit[0]?.metadata)).toContain("already_learned_for_run");
  });

  it("W3 + circular learning: three identical failures stop the entry; later outcomes change nothing", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-circ";
    const fail = (i: number) =>
      runCompleted(team, `run-${i}`, [{ skill: "s", outcome: "failure", failure_class: "phase_stall" }], NOW + i);
    await deliver(deps, [fail(1), fail(2), fail(3)]);
    expect(await entry(team, "s")).toMatchObject({ failure_count: 3, learning_stopped: true });
    await deliver(deps, [runCompleted(team, "run-4", [{ skill: "s", outcome: "success" }], NOW + 4)]);
    expect(await entry(team, "s")).toMatchObject({ success_count: 0, failure_count: 3, ledger_seq: 3 });
    const snapshot = await snapshotPolicyMemory(deps, team, NOW + 5);
    expect(snapshot.entries[0]).toMatchObject({ learning_stopped: true, failure_count: 3 });
  });

  it("ledger desync: a state not in the ledger rejects the write and aborts learning for the run", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-desync";
    await deliver(deps, [
      runCompleted(
        team,
        "run-1",
        [
          { skill: "a", outcome: "success" },
          { skill: "b", outcome: "success" },
        ],
        NOW,
      ),
    ]);
    // a write that bypassed the ledger
    await updateEntries(team, { successCount: 40 }, "b");
    const body = runCompleted(
      team,
      "run-2",
      [
        { skill: "a", outcome: "success" },
        { skill: "b", outcome: "success" },
      ],
      NOW + 1,
    );
    expect(await deliver(deps, [body])).toEqual({ acked: [body.event_id], retried: [] });
    expect(await entry(team, "a")).toMatchObject({ success_count: 1, ledger_seq: 1 });
    expect((await ledger(team)).filter((l) => l.run_id === "run-2")).toHaveLength(0);
    const audit = await audits(team);
    expect(audit.map((a) => a.action)).toEqual(["policy_memory.learning_aborted"]);
    expect(audit[0]?.metadata).toMatchObject({ reason: "ledger_desync", entry: "b" });
    // redelivery does not retry the aborted run
    await deliver(deps, [body], 2);
    expect(await audits(team)).toHaveLength(1);
  });

  it("a corrupted snapshot reads as defaults with DTL-STRAT-001; the next run resets the entry through the ledger", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-corrupt";
    await deliver(deps, [runCompleted(team, "run-1", [{ skill: "s", outcome: "success" }], NOW)]);
    await updateEntries(team, { recentOutcomes: sql`'{broken'` as never });
    const broken = await snapshotPolicyMemory(deps, team, NOW);
    expect(broken.reset).toMatchObject({ code: "DTL-STRAT-001" });
    expect(broken.entries).toEqual([]);
    await deliver(deps, [runCompleted(team, "run-2", [{ skill: "s", outcome: "failure", failure_class: "x" }], NOW)]);
    const healed = await snapshotPolicyMemory(deps, team, NOW);
    expect(healed.reset).toBeNull();
    expect(healed.entries[0]).toMatchObject({ success_count: 0, failure_count: 1 });
    const last = (await ledger(team)).at(-1);
    expect(last?.change).toMatchObject({ kind: "reset", code: "DTL-STRAT-001" });
  });

  it("learns per-failure-class retry adjustments that the policy evaluator then uses", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-retry";
    const recovered = (i: number) =>
      runCompleted(
        team,
        `run-${i}`,
        [{ skill: "s", outcome: "success", failure_classes: ["phase_timeout"], attempts: 3 }],
        NOW + i,
      );
    await deliver(deps, [recovered(1), recovered(2)]);
    expect(await deps.policyStore.maxAttemptsOverrides(team)).toEqual({});
    await deliver(deps, [recovered(3)]);
    expect(await deps.policyStore.maxAttemptsOverrides(team)).toEqual({ phase_timeout: 4 });
    const snapshot = await snapshotPolicyMemory(deps, team, NOW + 10);
    expect(snapshot.retry_adjustments).toEqual({
      phase_timeout: { backoff_multiplier: 1.5, max_attempts_override: 4 },
    });
  });

  it("keys entries by the query type's hash; no context means the default context", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-ctx";
    await deliver(deps, [
      runCompleted(team, "run-1", [{ skill: "s", outcome: "success", context: "incident.db" }], NOW),
      runCompleted(team, "run-2", [{ skill: "s", outcome: "failure" }], NOW),
    ]);
    const hashes = await recordRows(policyMemoryEntries, eq(policyMemoryEntries.teamId, team), {
      context_hash: policyMemoryEntries.contextHash,
    });
    expect(hashes.map((h) => h.context_hash)).toContain(DEFAULT_CONTEXT_HASH);
    expect(hashes).toHaveLength(2);
  });
});

describe("YARLI storage triggers", () => {
  function sink() {
    const stored: {
      teamId: string;
      memory: { namespace: string; class: string; metadata: Record<string, unknown> };
    }[] = [];
    return {
      stored,
      taskMemory: {
        store: async (teamId: string, memory: (typeof stored)[number]["memory"]) => {
          stored.push({ teamId, memory });
          return memory.namespace.includes("secret-project")
            ? { ok: false as const, code: "redaction_required", ruleIds: ["secret.token"] }
            : { ok: true as const };
        },
      },
    };
  }

  it("writes a semantic memory per failure and an episodic one per block, once per event", async () => {
    const s = sink();
    const { deps } = testDeps(NOW, { taskMemory: s.taskMemory });
    const failed = taskEvent("task.failed", "team-y", "run-1", "t1", "y-1", {
      task_key: "build:unit",
      project_id: "web",
      reason: "test_failure",
      exit_code_bucket: "exit_1",
    });
    const blocked = taskEvent("task.blocked", "team-y", "run-1", "t2", "y-2", { reason: "gate" });
    await deliver(deps, [failed, blocked]);
    await deliver(deps, [failed, blocked], 2);
    expect(s.stored.map((x) => [x.memory.namespace, x.memory.class])).toEqual([
      ["team/team-y/project/web", "semantic"],
      ["team/team-y/run/run-1", "episodic"],
    ]);
    expect(s.stored[0]?.memory.metadata).toMatchObject({
      run_id: "run-1",
      task_id: "t1",
      event_id: "y-1",
      reason: "test_failure",
      task_key: "build:unit",
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("stores a governance failure only when its signature recurs the third time", async () => {
    const s = sink();
    const { deps } = testDeps(NOW, { taskMemory: s.taskMemory });
    const denial = (i: number) =>
      taskEvent("task.failed", "team-gov", `run-${i}`, "t1", `gov-${i}`, {
        task_key: "deploy",
        reason: "policy_denied",
      });
    await deliver(deps, [denial(1), denial(2)]);
    expect(s.stored).toHaveLength(0);
    await deliver(deps, [denial(3)]);
    expect(s.stored).toHaveLength(1);
    expect(s.stored[0]?.memory.class).toBe("semantic");
  });

  it("a refused write emits task.memory_store_failed and never blocks the consumer", async () => {
    const s = sink();
    const { deps, published } = testDeps(NOW, { taskMemory: s.taskMemory });
    const ev = taskEvent("task.failed", "team-ref", "run-1", "t1", "ref-1", { project_id: "secret-project" });
    expect(await deliver(deps, [ev])).toEqual({ acked: ["ref-1"], retried: [] });
    expect(published).toEqual([
      expect.objectContaining({
        type: "task.memory_store_failed",
        team_id: "team-ref",
        source_event_id: "ref-1",
        rule_ids: ["secret.token"],
      }),
    ]);
    const crashing = testDeps(NOW, { taskMemory: { store: async () => Promise.reject(new Error("down")) } });
    const ev2 = taskEvent("task.failed", "team-ref", "run-1", "t2", "ref-2");
    expect(await deliver(crashing.deps, [ev2])).toEqual({ acked: ["ref-2"], retried: [] });
  });
});

describe("gate events", () => {
  it("records kind, decision and latency per gate, whichever event arrives first", async () => {
    const { deps } = testDeps(NOW);
    // the fields a run sends (strict: contracts/event-fields.ts)
    const base = {
      team_id: "team-g",
      run_id: "run-1",
      gate_id: "g1",
      op_id: "op-1",
      policy_key: "wrong_value",
      kind: "hard",
      rule_id: null,
      opened_by: "worker",
    };
    const decided = await deliver(deps, [
      {
        ...base,
        event_id: "g-2",
        type: "gate.decided",
        seq: 2,
        occurred_at: 5000,
        subject_type: "order",
        status: "approved",
        decision: "retry",
        decided_by: "ann",
        latency_ms: 4000,
        outcome: "approved",
        channel: "api",
      },
    ]);
    expect(decided.retried).toEqual([]);
    const opened = {
      ...base,
      event_id: "g-1",
      type: "gate.opened",
      seq: 1,
      occurred_at: 1000,
      timeout_ms: null,
      deadline_at: null,
      digest: null,
      context: {},
    };
    expect((await deliver(deps, [opened])).retried).toEqual([]);
    const { kind, openedAt, decidedAt, decidedBy, latencyMs } = gateMetrics;
    expect(
      await recordRows(gateMetrics, eq(gateMetrics.teamId, "team-g"), {
        kind,
        opened_at: openedAt,
        decided_at: decidedAt,
        decided_by: decidedBy,
        latency_ms: latencyMs,
      }),
    ).toEqual([{ kind: "hard", opened_at: 1000, decided_at: 5000, decided_by: "ann", latency_ms: 4000 }]);
  });
});

describe("the dead-letter queue consumer", () => {
  it("records each dead letter once, with its team, and acks", async () => {
    const { deps } = testDeps(NOW);
    const body: unknown = { event_id: "dead-1", type: "run.completed", team_id: "team-dlq-unit", run: "x" };
    for (const attempt of [1, 2]) {
      const result = await runBatch((batch) => consumeDeadLetters(batch, deps), "warden-events-dlq", [
        { id: `d${attempt}`, timestamp: new Date(), attempts: attempt, body },
        { id: `e${attempt}`, timestamp: new Date(), attempts: 1, body: "not even an object" },
      ]);
      expect(result.explicitAcks).toHaveLength(2);
    }
    // ids `evt:dead-1`, `msg:e1`, `msg:e2`: insertion order is id order
    const dead = await recordRows(eventDeadLetters, undefined, {
      team_id: eventDeadLetters.teamId,
      event_id: eventDeadLetters.eventId,
    });
    expect(dead).toEqual([
      { team_id: "team-dlq-unit", event_id: "dead-1" },
      { team_id: null, event_id: null },
      { team_id: null, event_id: null },
    ]);
  });
});

describe("decay with a fixed clock", () => {
  it("applies 0.95^days to the learned weight on read, archived past ~45 days", async () => {
    const { deps } = testDeps(NOW);
    const team = "team-decay";
    await deliver(deps, [runCompleted(team, "run-1", [{ skill: "s", outcome: "success" }], NOW)]);
    const at = (days: number) => snapshotPolicyMemory(deps, team, NOW + days * DAY).then((s) => s.entries[0]);
    expect(await at(0)).toMatchObject({ decay_factor: 1, effective_weight: 1.333333, archived: false });
    expect((await at(20))?.decay_factor).toBeCloseTo(0.95 ** 20, 6);
    expect(await at(46)).toMatchObject({ decay_factor: 0.1, effective_weight: 0.133333, archived: true });
  });
});

describe("independent subscribers", () => {
  it("applies learning when the Slack run feed fails, retries the message, and applies nothing twice on redelivery", async () => {
    const feedDown = testDeps(NOW, {
      slackStore: {
        ...testDeps(NOW).deps.slackStore,
        byTeam: async () => {
          throw new Error("slack store down");
        },
      },
    }).deps;
    const body = { ...runCompleted("team-sub1", "run-1", [{ skill: "code.test", outcome: "success" }], NOW), seq: 3 };
    expect(await deliver(feedDown, [body])).toEqual({ acked: [], retried: [body.event_id] });
    // learning did not wait on the feed: the run's outcome is in policy memory already
    expect(await entry("team-sub1", "code.test")).toMatchObject({ success_count: 1, ledger_seq: 1 });

    const { deps } = testDeps(NOW);
    expect(await deliver(deps, [body], 2)).toEqual({ acked: [body.event_id], retried: [] });
    expect(await entry("team-sub1", "code.test")).toMatchObject({ success_count: 1, ledger_seq: 1 });
    expect(await ledger("team-sub1")).toHaveLength(1);
  });
});
