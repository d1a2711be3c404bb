// Scheduled sweeps against local D1: leases, retention, archiving, memory tiers with a fixed clock, the rollback matrix.
import { createScheduledController, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { logDecisions, loggedDecision } from "../../../test/decision-log";
import { call, token } from "../../../test/helpers";
import { DAY, deliver, runCompleted, testDeps } from "../../../test/learning";
import { drainAll } from "../../../test/run-helpers";
import { teamMemoryRows } from "../../../test/team-memory";
import { makeDeps } from "../../deps";
import worker from "../../index";
import type { TeamMemoryMaintenance } from "../../ports/memory-maintenance";
import { createD1AuditLog } from "../audit/store/audit-log";
import { createD1MemoryTeamRegistry } from "../memory/store/memory-team-registry";
import { DEFAULT_PROFILE } from "../policy/default-profile";
import { approvalEvents } from "../runs/store/tables";
import { DAILY_CRON, MEMORY_TEAMS_PER_TICK, ROLLBACK_CRON, runScheduled } from "./scheduled";
import { sweepLeases } from "./store/tables";

/** the team's audit rows (of one action if given), newest first, through the audit log's store */
const auditRows = async (team: string, action?: string) =>
  (await createD1AuditLog(drizzle(env.DB)).list(team, { action, limit: 100 })).entries;
// no store port reads these back (the sweep store only takes and releases leases, the run record only writes
// approvals): typed drizzle reads of the owning features' own tables
const leaseRow = async (name: string) =>
  (await drizzle(env.DB).select().from(sweepLeases).where(eq(sweepLeases.name, name)))[0];
const approvalRows = (where: { teamId: string } | { gateId: string }) =>
  drizzle(env.DB)
    .select()
    .from(approvalEvents)
    .where("teamId" in where ? eq(approvalEvents.teamId, where.teamId) : eq(approvalEvents.gateId, where.gateId));

let slot = 1_000;
const nextSlot = () => ++slot;
/** Each test's clock starts after the previous test's (leases released at a later time stay released). */
let clockBase = Date.now();
const later = () => {
  clockBase = Math.max(clockBase + 100_000, Date.now());
  return clockBase;
};

/** one team always due: each daily sweep sweeps it once */
function countingMaintenance(delayMs = 20) {
  const calls = { decay: 0, due: 0 };
  const mm: TeamMemoryMaintenance = {
    async teamsDue() {
      calls.due++;
      return ["team-counting"];
    },
    async sweepTeam() {
      calls.decay++;
      await new Promise((r) => setTimeout(r, delayMs));
      return { decayed: 0, toWarm: 0, toCold: 0, deleted: 0, expired: 0, tierLeftIndex: [], expiryLeftIndex: [] };
    },
  };
  return { calls, mm };
}

describe("sweep leases", () => {
  it("runs two overlapping invocations of the same slot once", async () => {
    const now = later();
    const { calls, mm } = countingMaintenance();
    const { deps } = testDeps(now, { memoryMaintenance: mm });
    const s = nextSlot();
    const [a, b] = await Promise.all([
      runScheduled(DAILY_CRON, s, deps, now, "inv-a"),
      runScheduled(DAILY_CRON, s, deps, now, "inv-b"),
    ]);
    expect([...a, ...b].map((o) => o.ran).sort()).toEqual([false, true]);
    expect(calls).toEqual({ decay: 1, due: 2 });
    // a late retry of the same slot does nothing; the next slot runs
    expect((await runScheduled(DAILY_CRON, s, deps, now + 1000, "inv-c"))[0]?.ran).toBe(false);
    expect((await runScheduled(DAILY_CRON, nextSlot(), deps, now + 2000, "inv-d"))[0]?.ran).toBe(true);
    expect(calls.decay).toBe(2);
  });

  it("keeps a second slot out while a live lease is held, and lets it in once it expired", async () => {
    const now = later();
    const { calls, mm } = countingMaintenance(0);
    const { deps } = testDeps(now, { memoryMaintenance: mm });
    const held = nextSlot();
    expect(await deps.sweepStore.acquireLease("daily", String(held), `${held}|stuck`, now, 60_000)).toBe(true);
    expect((await runScheduled(DAILY_CRON, nextSlot(), deps, now + 1000, "inv"))[0]).toEqual({
      sweep: "daily",
      ran: false,
      reason: "lease_held",
    });
    expect((await runScheduled(DAILY_CRON, nextSlot(), deps, now + 61_000, "inv"))[0]?.ran).toBe(true);
    expect(calls.decay).toBe(1);
  });

  it("dispatches the 5-minute cron to the rollback matrix, the learning reconciliation and the gate SLA sweep, the daily cron to the daily sweep only", async () => {
    const now = later();
    const { calls, mm } = countingMaintenance(0);
    const { deps } = testDeps(now, { memoryMaintenance: mm });
    expect((await runScheduled(ROLLBACK_CRON, nextSlot(), deps, now, "i")).map((o) => o.sweep)).toEqual([
      "rollback",
      "reconcile",
      "gate_sla",
    ]);
    expect(calls.decay).toBe(0);
    expect((await runScheduled(DAILY_CRON, nextSlot(), deps, now, "i")).map((o) => o.sweep)).toEqual(["daily"]);
  });

  it("is wired to the worker's scheduled() handler", async () => {
    const scheduledTime = later();
    // the worker runs on the real clock; earlier tests released this lease at their (later) fixed clocks: take it
    // after them and release it at the real clock, so the worker's invocation finds it free
    const leases = makeDeps(env).sweepStore;
    expect(await leases.acquireLease("rollback", "test-free", "test-free|wired", scheduledTime, 1)).toBe(true);
    await leases.releaseLease("rollback", "test-free|wired", Date.now() - 1);
    await worker.scheduled(createScheduledController({ cron: ROLLBACK_CRON, scheduledTime }), env);
    const lease = await leaseRow("rollback");
    expect(lease?.holder.startsWith(`${scheduledTime}|`)).toBe(true);
  });
});

describe("retention and archiving", () => {
  async function approval(id: string, createdAt: number) {
    await makeDeps(env).runRecord.write([
      {
        t: "approval",
        row: {
          id,
          team_id: "team-ret",
          run_id: "run",
          op_id: id,
          gate_id: "g",
          policy_key: "wrong_value",
          decision: "allow",
          approver: "ann",
          reason: null,
          note: null,
          dedupe_key: `ret:${id}`,
          created_at: createdAt,
          outcome: "approved",
          channel: "api",
        },
      },
    ]);
  }

  it("deletes approval events older than 365 days and keeps the younger ones (still append-only)", async () => {
    const now = later();
    await approval("old-1", now - 400 * DAY);
    await approval("old-2", now - 366 * DAY);
    await approval("young", now - 300 * DAY);
    const { deps } = testDeps(now, { memoryMaintenance: countingMaintenance(0).mm });
    const [out] = await runScheduled(DAILY_CRON, nextSlot(), deps, now, "ret");
    expect(out?.ran && out.sweep === "daily" && out.report.approval_events_deleted).toBe(2);
    expect((await approvalRows({ teamId: "team-ret" })).map((r) => r.id)).toEqual(["young"]);
    // that "young" stays append-only (a DELETE inside its 365 days is refused) is the schema's: checked in the adapter
    // test src/adapters/d1/append-only.app.unit.test.ts
  });

  it("archives policy-memory entries decayed below 0.1, audits it, and learning resumes on them", async () => {
    const now = later();
    const team = "team-arch";
    const { deps } = testDeps(now, { memoryMaintenance: countingMaintenance(0).mm });
    await deliver(deps, [
      runCompleted(team, "r-old", [{ skill: "old", outcome: "success" }], now - 46 * DAY),
      runCompleted(team, "r-new", [{ skill: "fresh", outcome: "success" }], now - 44 * DAY),
    ]);
    await runScheduled(DAILY_CRON, nextSlot(), deps, now, "arch");
    // the team's entries as the learning store's snapshot reads them, by skill name
    const entries = async () => (await deps.learningStore.snapshotRows(team)).entries;
    const state = (await entries()).map(({ skill_name, archived }) => ({ skill_name, archived }));
    expect(state).toEqual([
      { skill_name: "fresh", archived: 0 },
      { skill_name: "old", archived: 1 },
    ]);
    const [audit] = await auditRows(team, "policy_memory.archived");
    expect(audit?.metadata?.entry_ids).toHaveLength(1);
    await deliver(deps, [runCompleted(team, "r-back", [{ skill: "old", outcome: "success" }], now)]);
    const back = (await entries())
      .filter((e) => e.skill_name === "old")
      .map(({ archived, success_count }) => ({ archived, success_count }));
    expect(back).toEqual([{ archived: 0, success_count: 2 }]);
  });
});

describe("memory decay and tier moves (team objects, fixed clock)", () => {
  async function doc(
    id: string,
    o: {
      team?: string;
      ns?: string;
      cls?: string;
      tier?: string;
      pinned?: boolean;
      created: number;
      tierChanged?: number;
      expires?: number | null;
    },
  ) {
    const team = o.team ?? "team-m1";
    await createD1MemoryTeamRegistry(drizzle(env.DB)).register(team, o.created);
    await teamMemoryRows(
      team,
      `INSERT INTO mem_doc (id, namespace, class, text, tags, metadata, pinned, tier, tier_changed_at, created_at, expires_at)
       VALUES (?, ?, ?, 'x', '[]', '{}', ?, ?, ?, ?, ?)`,
      id,
      o.ns ?? `team/${team}/org/notes`,
      o.cls ?? "episodic",
      o.pinned ? 1 : 0,
      o.tier ?? "hot",
      o.tierChanged ?? o.created,
      o.created,
      o.expires ?? null,
    );
  }
  async function importance(docId: string, raw: number, lastUpdate: number, lastUsed: number | null) {
    await teamMemoryRows(
      "team-m1",
      `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at, last_used_at) VALUES (?, 'role:dev', ?, ?, ?)`,
      docId,
      raw,
      lastUpdate,
      lastUsed,
    );
  }
  const tiersOf = async (team: string) =>
    (await teamMemoryRows<{ id: string; tier: string }>(team, "SELECT id, tier FROM mem_doc")).map(
      (r) => [r.id, r.tier] as const,
    );

  it("decays importance, moves hot → warm → cold, deletes old cold episodic and expired task memories, unindexes", async () => {
    const NOW = later();
    await doc("m-idle", { created: NOW - 100 * DAY });
    await doc("m-loved", { created: NOW - 100 * DAY });
    await importance("m-loved", 1000, NOW - 95 * DAY, NOW - 95 * DAY);
    await doc("m-recent", { created: NOW - 100 * DAY });
    await importance("m-recent", 5, NOW - 10 * DAY, NOW - 10 * DAY);
    await doc("m-pinned", { created: NOW - 400 * DAY, pinned: true });
    await doc("m-rigid", { created: NOW - 400 * DAY, cls: "rigid" });
    await doc("m-sem", { created: NOW - 30 * DAY, cls: "semantic" });
    await importance("m-sem", 80, NOW - 90 * DAY, NOW - 1 * DAY);
    await doc("w-old", { tier: "warm", created: NOW - 300 * DAY, tierChanged: NOW - 181 * DAY });
    await doc("w-young", { tier: "warm", created: NOW - 300 * DAY, tierChanged: NOW - 100 * DAY });
    await doc("c-epi", { tier: "cold", created: NOW - 366 * DAY, tierChanged: NOW - 10 * DAY });
    await importance("c-epi", 1, NOW - 2 * DAY, null);
    await doc("c-sem", { tier: "cold", cls: "semantic", created: NOW - 400 * DAY });
    await doc("c-pin", { tier: "cold", pinned: true, created: NOW - 400 * DAY });
    await doc("t-old", { team: "team-m2", ns: "team/team-m2/task/k1/notes", created: NOW - 8 * DAY });
    await doc("t-new", { team: "team-m2", ns: "team/team-m2/task/k2/notes", created: NOW - 3 * DAY });
    await doc("t-pin", { team: "team-m2", ns: "team/team-m2/task/k3/notes", created: NOW - 30 * DAY, pinned: true });
    await doc("x-exp", { team: "team-m2", created: NOW - 1 * DAY, expires: NOW - 1 });

    const removed: { teamId: string; ids: string[] }[] = [];
    const { deps } = testDeps(NOW, {
      memoryIndexSync: { remove: async (teamId, ids) => void removed.push({ teamId, ids }) },
    });
    const [out] = await runScheduled(DAILY_CRON, nextSlot(), deps, NOW, "tiers");
    expect(out?.ran && out.sweep === "daily" && out.report.memory).toEqual({
      decayed: 4,
      to_warm: 1,
      to_cold: 1,
      deleted: 1,
      expired: 2,
      unindexed: 3,
    });
    const tiers = Object.fromEntries([...(await tiersOf("team-m1")), ...(await tiersOf("team-m2"))]);
    expect(tiers).toEqual({
      "m-idle": "warm",
      "m-loved": "hot",
      "m-recent": "hot",
      "m-pinned": "hot",
      "m-rigid": "hot",
      "m-sem": "hot",
      "w-old": "cold",
      "w-young": "warm",
      "c-sem": "cold",
      "c-pin": "cold",
      "t-new": "hot",
      "t-pin": "hot",
    });
    expect(removed).toEqual([
      { teamId: "team-m1", ids: ["m-idle"] },
      { teamId: "team-m2", ids: ["t-old", "x-exp"] },
    ]);
    const scores = Object.fromEntries(
      (
        await teamMemoryRows<{ doc_id: string; raw_score: number; last_update_at: number }>(
          "team-m1",
          "SELECT * FROM mem_actor_importance",
        )
      ).map((r) => [r.doc_id, r]),
    );
    expect(scores["m-loved"]?.raw_score).toBeCloseTo(1000 * 0.5 ** (95 / 30), 6);
    expect(scores["m-sem"]?.raw_score).toBeCloseTo(40, 9);
    expect(scores["m-recent"]?.raw_score).toBeCloseTo(5 * 0.5 ** (10 / 30), 9);
    expect(scores["m-loved"]?.last_update_at).toBe(NOW);
    expect(scores["c-epi"]).toBeUndefined();
    // what it did, team by team
    expect(out?.ran && out.sweep === "daily" && out.report.memory_teams).toEqual([
      { team_id: "team-m1", decayed: 4, to_warm: 1, to_cold: 1, deleted: 1, expired: 0, unindexed: 1 },
      { team_id: "team-m2", decayed: 0, to_warm: 0, to_cold: 0, deleted: 0, expired: 2, unindexed: 2 },
    ]);

    // a second pass at the same time changes nothing
    const [again] = await runScheduled(DAILY_CRON, nextSlot(), deps, NOW, "tiers-2");
    expect(again?.ran && again.sweep === "daily" && again.report.memory).toEqual({
      decayed: 0,
      to_warm: 0,
      to_cold: 0,
      deleted: 0,
      expired: 0,
      unindexed: 0,
    });
  });
});

describe("memory sweep per team object: bounded per tick, resumed least recently swept first", () => {
  /** the registry's semantics over a map: due = not swept since `sweptBefore`, least recently swept first */
  function fleet(teams: number, failing: Set<string>) {
    const sweptAt = new Map(Array.from({ length: teams }, (_, i) => [`f-${String(i).padStart(4, "0")}`, 0]));
    const mm: TeamMemoryMaintenance = {
      async teamsDue(sweptBefore, limit) {
        return [...sweptAt]
          .filter(([, at]) => at < sweptBefore)
          .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : 1))
          .slice(0, limit)
          .map(([t]) => t);
      },
      async sweepTeam(teamId, now) {
        if (failing.has(teamId)) throw new Error("object unavailable");
        sweptAt.set(teamId, now);
        return { decayed: 1, toWarm: 0, toCold: 0, deleted: 0, expired: 0, tierLeftIndex: [], expiryLeftIndex: [] };
      },
    };
    return { mm, sweptAt };
  }

  it("sweeps at most MEMORY_TEAMS_PER_TICK teams, leaves the rest (and a failed one) due for the next tick", async () => {
    const now = later();
    const failing = new Set(["f-0003"]);
    const { mm, sweptAt } = fleet(MEMORY_TEAMS_PER_TICK + 40, failing);
    const { deps } = testDeps(now, { memoryMaintenance: mm });
    const [first] = await runScheduled(DAILY_CRON, nextSlot(), deps, now, "fleet-1");
    const r1 = first?.ran && first.sweep === "daily" ? first.report : null;
    expect(r1?.memory_teams).toHaveLength(MEMORY_TEAMS_PER_TICK - 1);
    expect(r1?.memory.decayed).toBe(MEMORY_TEAMS_PER_TICK - 1);
    expect(r1?.errors).toEqual(["memory lifecycle f-0003: Error: object unavailable"]);
    expect(r1?.memory_teams_left).toBe(41);
    failing.clear();
    const [second] = await runScheduled(DAILY_CRON, nextSlot(), deps, now + 60_000, "fleet-2");
    const r2 = second?.ran && second.sweep === "daily" ? second.report : null;
    // the failed team first (never swept), then the ones the first tick did not reach
    expect(r2?.memory_teams[0]?.team_id).toBe("f-0003");
    expect(r2?.memory_teams).toHaveLength(41);
    expect(r2?.memory_teams_left).toBe(0);
    expect([...sweptAt.values()].filter((at) => at === 0)).toEqual([]);
  });
});

describe("rollback matrix", () => {
  let d = 0;
  async function decisions(
    team: string,
    n: number,
    o: { escalate?: number; unknown?: number; missing?: number; at: number },
  ) {
    const logged = Array.from({ length: n }, (_, i) => {
      const rule =
        i < (o.missing ?? 0)
          ? "default.missing_metadata"
          : i < (o.missing ?? 0) + (o.unknown ?? 0)
            ? "default.unknown_failure_class"
            : "enforce.vibe_fail.middle";
      const action = i >= n - (o.escalate ?? 0) ? "escalate" : "retry";
      return loggedDecision(team, `dec-${++d}`, o.at, {
        failure_class: null,
        rule_id: rule,
        raw_action: action,
        selected_action: action,
      });
    });
    // through the decision log's writer: R2 objects and the counters the rollback matrix reads
    await logDecisions(logged);
  }

  async function withTriggers(
    team: string,
    triggers: Partial<(typeof DEFAULT_PROFILE.rollback_matrix)[number]>[],
    deps: ReturnType<typeof testDeps>["deps"],
  ) {
    const base = DEFAULT_PROFILE.rollback_matrix[0] as (typeof DEFAULT_PROFILE.rollback_matrix)[number];
    const profile = {
      ...DEFAULT_PROFILE,
      rollback_matrix: triggers.map((t, i) => ({ ...base, trigger_id: `t${i}`, ...t })),
    };
    const version = await deps.policyStore.addPendingProfile(team, profile, "test", Date.now());
    expect(await deps.policyStore.activateProfile(team, version, Date.now())).toBe(true);
  }

  const rollbackOf = async (deps: ReturnType<typeof testDeps>["deps"], now: number) => {
    const [out] = await runScheduled(ROLLBACK_CRON, nextSlot(), deps, now, "rb");
    return out?.ran && out.sweep === "rollback" ? out.teams : [];
  };

  it("fires the built-in escalation trigger at 10 samples above 0.35, lowers to observe, audits, emits, invalidates", async () => {
    const now = later();
    const { deps, published } = testDeps(now);
    await decisions("team-rb1", 10, { escalate: 4, at: now - 3600_000 });
    await deps.policies.get("team-rb1", now); // cache the old ceiling
    const teams = await rollbackOf(deps, now);
    const team = teams.find((t) => t.team_id === "team-rb1");
    expect(team).toMatchObject({ ceiling_before: "enforce", ceiling_after: "observe" });
    expect(team?.triggers.find((t) => t.trigger_id === "enforce_escalation_rate_high")).toMatchObject({
      status: "breach",
      value: 0.4,
      sample: 10,
      action: { from: "enforce", to: "observe" },
    });
    expect(await deps.policyStore.modeCeiling("team-rb1")).toBe("observe");
    expect((await deps.policyStore.modeCeilingReason("team-rb1"))?.reason).toContain("enforce_escalation_rate_high");
    expect((await deps.policies.get("team-rb1", now)).ceiling).toBe("observe");
    const audit = await auditRows("team-rb1", "policy.rollback");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.metadata).toMatchObject({
      trigger_id: "enforce_escalation_rate_high",
      from: "enforce",
      to: "observe",
    });
    expect(published).toEqual([
      expect.objectContaining({
        type: "policy.rollback",
        team_id: "team-rb1",
        run_id: null,
        from: "enforce",
        to: "observe",
      }),
    ]);
    const metrics = await call("GET", "/v1/metrics", { token: await token("team-rb1", ["runs:read"]) });
    expect(metrics.json).toMatchObject({
      mode_ceiling: "observe",
      rollback_count: 1,
      escalation_rate: 0.4,
      decisions: 10,
    });
    expect(metrics.json.rollback_events[0]).toMatchObject({
      trigger_id: "enforce_escalation_rate_high",
      to: "observe",
    });
  });

  it("does not fire one sample below the minimum, nor at exactly the threshold of a strict >", async () => {
    const now = later();
    const { deps } = testDeps(now);
    await decisions("team-rb2", 9, { escalate: 9, at: now - 3600_000 });
    await decisions("team-rb3", 20, { escalate: 7, at: now - 3600_000 }); // 0.35 exactly
    const teams = await rollbackOf(deps, now);
    for (const id of ["team-rb2", "team-rb3"]) {
      expect(teams.find((t) => t.team_id === id)?.ceiling_after).toBe("enforce");
      expect(await deps.policyStore.modeCeiling(id)).toBe("enforce");
    }
    expect(teams.find((t) => t.team_id === "team-rb2")?.triggers[0]?.status).toBe("insufficient_sample");
    expect(teams.find((t) => t.team_id === "team-rb3")?.triggers[0]).toMatchObject({ status: "ok", value: 0.35 });
  });

  it("fires a >= trigger at exactly its threshold and sample size, and follows the operator action to off", async () => {
    const now = later();
    const { deps } = testDeps(now);
    const trigger = {
      metric: "unknown_failure_class_ratio",
      threshold: "unknown_failure_class_ratio >= 0.25",
      min_sample_size: 8,
      lookback_window: "48h",
      operator_action: "set memrl_mode ceiling to off",
    };
    await withTriggers("team-rb4", [trigger], deps);
    await withTriggers("team-rb5", [trigger], deps);
    await withTriggers("team-rb6", [{ ...trigger, threshold: "unknown_failure_class_ratio > 0.25" }], deps);
    await decisions("team-rb4", 8, { unknown: 2, at: now - 40 * 3600_000 });
    await decisions("team-rb5", 7, { unknown: 2, at: now - 40 * 3600_000 });
    await decisions("team-rb5", 1, { at: now - 50 * 3600_000 }); // outside the 48h window
    await decisions("team-rb6", 8, { unknown: 2, at: now - 40 * 3600_000 });
    await rollbackOf(deps, now);
    expect(await deps.policyStore.modeCeiling("team-rb4")).toBe("off");
    expect(await deps.policyStore.modeCeiling("team-rb5")).toBe("enforce");
    expect(await deps.policyStore.modeCeiling("team-rb6")).toBe("enforce");
  });

  it("never raises a ceiling, and writes nothing when a breach would not lower it", async () => {
    const now = later();
    const { deps, published } = testDeps(now);
    await deps.policyStore.setModeCeiling("team-rb7", "off", "admin", now);
    await decisions("team-rb7", 10, { escalate: 10, at: now - 3600_000 });
    const [team] = (await rollbackOf(deps, now)).filter((t) => t.team_id === "team-rb7");
    expect(team).toMatchObject({ ceiling_before: "off", ceiling_after: "off" });
    expect(team?.triggers[0]?.status).toBe("breach");
    expect(await auditRows("team-rb7")).toHaveLength(0);
    expect(published.filter((e) => e.team_id === "team-rb7")).toHaveLength(0);
  });

  it("evaluates only teams with decisions in the last 30 days, and lowers once when two sweeps overlap", async () => {
    const now = later();
    const { deps } = testDeps(now);
    await decisions("team-rb8", 10, { escalate: 10, at: now - 40 * DAY });
    await decisions("team-rb9", 3, { missing: 1, at: now - 3600_000 });
    const s = nextSlot();
    const outs = await Promise.all([
      runScheduled(ROLLBACK_CRON, s, deps, now, "x"),
      runScheduled(ROLLBACK_CRON, s, deps, now, "y"),
    ]);
    const ran = outs.flat().filter((o) => o.ran && o.sweep === "rollback");
    expect(ran).toHaveLength(1);
    // the learning reconciliation of the same slot ran once too
    expect(outs.flat().filter((o) => o.ran && o.sweep === "reconcile")).toHaveLength(1);
    const teams = ran[0]?.sweep === "rollback" && ran[0].ran ? ran[0].teams : [];
    expect(teams.map((t) => t.team_id)).not.toContain("team-rb8");
    expect(teams.find((t) => t.team_id === "team-rb9")?.ceiling_after).toBe("off");
    expect(await auditRows("team-rb9", "policy.rollback")).toHaveLength(1);
  });

  it("denies a mode-ceiling change still pending when it lowers the ceiling (system:rollback, channel rollback)", async () => {
    const now = later();
    const { deps } = testDeps(now);
    const team = "team-rb-gate";
    const admin = await token(team, ["policy:admin", "runs:read"], { sub: "admin-rb" });
    const put = await call("PUT", "/v1/policy/mode-ceiling", { token: admin, body: { ceiling: "observe" } });
    expect(put.status, put.text).toBe(202);
    const other = await call("PUT", "/v1/policy/mode-ceiling", {
      token: await token("team-rb-bystander", ["policy:admin"], { sub: "admin-b" }),
      body: { ceiling: "observe" },
    });
    expect(other.status, other.text).toBe(202);
    await drainAll(); // the gate index lists the pending gates
    await decisions(team, 10, { escalate: 4, at: now - 3600_000 });

    const teams = await rollbackOf(deps, now);
    expect(teams.find((t) => t.team_id === team)).toMatchObject({
      ceiling_after: "observe",
      denied_gates: [put.json.gate_id],
    });
    const gate = await call("GET", `/v1/runs/${put.json.run_id}/gates/${put.json.gate_id}`, { token: admin });
    expect(gate.json).toMatchObject({ status: "denied", channel: "rollback", decided_by: "system:rollback" });
    expect(gate.json.note).toContain("enforce → observe");
    await drainAll();
    expect(
      (await approvalRows({ gateId: put.json.gate_id })).map(({ decision, approver, channel }) => ({
        decision,
        approver,
        channel,
      })),
    ).toEqual([{ decision: "deny", approver: "system:rollback", channel: "rollback" }]);
    // a denied change is never applied, and another team's pending change is left alone
    const late = await call("POST", "/v1/approvals", {
      token: await token(team, ["approvals:decide"], { sub: "approver-rb" }),
      body: {
        run_id: put.json.run_id,
        op_id: put.json.op_id,
        policy_key: "policy_deploy",
        decision: "approve_retry",
        note: "ok",
      },
    });
    expect(late.status).toBe(409);
    const bystander = await call("GET", `/v1/runs/${other.json.run_id}/gates/${other.json.gate_id}`, {
      token: await token("team-rb-bystander", ["runs:read"]),
    });
    expect(bystander.json.status).toBe("pending");
  });
});
