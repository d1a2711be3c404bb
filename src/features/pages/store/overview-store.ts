// OverviewStore over D1 with drizzle: the team overview's reads in one db.batch, and one run's attempts for its trace.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { auditLog } from "../../audit/store/tables";
import { gateMetrics } from "../../learning/store/tables";
import { approvalCountsQuery, humanLatenciesQuery } from "../../metrics";
import { teamModes } from "../../policy/store/tables";
import { attemptSpend, teamAttempts } from "../../runs";
import { attempts, deadLetters, runs, workOrders } from "../../runs/store/tables";
import { slackInstallations, slackMessages } from "../../slack/store/tables";
import type { OverviewStore } from "./overview-store-port";

const RECENT_RUNS = 20;
const MAX_LIST = 50;
const MAX_SAMPLES = 20_000;

const num = (v: unknown) => (typeof v === "number" ? v : v == null ? 0 : Number(v) || 0);

/** sum of the orders' `cost_budget_tokens` */
const budget = sql<number | null>`sum(json_extract(${workOrders.body}, '$.cost_budget_tokens'))`;

/** what stands now: the recent runs with their spend and budget, open gates, unresolved dead letters */
function currentQueries(db: DrizzleD1Database, teamId: string) {
  const recent = db
    .select({ runId: runs.runId })
    .from(runs)
    .where(eq(runs.teamId, teamId))
    .orderBy(desc(runs.createdAt))
    .limit(RECENT_RUNS);
  return [
    db
      .select()
      .from(runs)
      .where(eq(runs.teamId, teamId))
      .orderBy(desc(runs.createdAt), desc(runs.runId))
      .limit(RECENT_RUNS),
    db
      .select({
        runId: attempts.runId,
        ...attemptSpend,
        breaches: sql<number>`coalesce(sum(case when ${attempts.failureClass} = 'budget_exceeded' then 1 else 0 end), 0)`,
      })
      .from(attempts)
      .where(inArray(attempts.runId, recent))
      .groupBy(attempts.runId),
    db
      .select({ runId: workOrders.runId, budget })
      .from(workOrders)
      .where(and(eq(workOrders.teamId, teamId), inArray(workOrders.runId, recent)))
      .groupBy(workOrders.runId),
    db
      .select()
      .from(gateMetrics)
      .where(and(eq(gateMetrics.teamId, teamId), isNull(gateMetrics.decidedAt), isNotNull(gateMetrics.openedAt)))
      .orderBy(asc(gateMetrics.openedAt), asc(gateMetrics.gateId))
      .limit(MAX_LIST),
    db
      .select()
      .from(deadLetters)
      .where(and(eq(deadLetters.teamId, teamId), isNull(deadLetters.resolvedAt)))
      .orderBy(asc(deadLetters.createdAt), asc(deadLetters.id))
      .limit(MAX_LIST),
  ] as const;
}

/** the window since `since`: spend and budget per task, approvals, and the SLO samples (attempts, dead letters) */
function windowQueries(db: DrizzleD1Database, teamId: string, since: number) {
  return [
    db
      .select({ taskId: workOrders.taskId, ...attemptSpend })
      .from(attempts)
      .innerJoin(workOrders, and(eq(workOrders.runId, attempts.runId), eq(workOrders.orderId, attempts.orderId)))
      .where(and(eq(workOrders.teamId, teamId), gte(attempts.endedAt, since)))
      .groupBy(workOrders.taskId)
      .orderBy(workOrders.taskId)
      .limit(MAX_LIST),
    db
      .select({ taskId: workOrders.taskId, budget })
      .from(workOrders)
      .where(and(eq(workOrders.teamId, teamId), gte(workOrders.updatedAt, since)))
      .groupBy(workOrders.taskId),
    approvalCountsQuery(db, teamId, since),
    humanLatenciesQuery(db, teamId, since, MAX_SAMPLES),
    teamAttempts(
      db
        .select({
          outcome: attempts.outcome,
          next: attempts.next,
          startedAt: attempts.startedAt,
          endedAt: attempts.endedAt,
        })
        .from(attempts)
        .$dynamic(),
      teamId,
      gte(attempts.endedAt, since),
    )
      .orderBy(asc(attempts.endedAt))
      .limit(MAX_SAMPLES),
    db
      .select({ createdAt: deadLetters.createdAt })
      .from(deadLetters)
      .where(and(eq(deadLetters.teamId, teamId), gte(deadLetters.createdAt, since)))
      .orderBy(asc(deadLetters.createdAt))
      .limit(MAX_SAMPLES),
    // spend per persona: the persona_id of the token that held each attempt's lease
    teamAttempts(
      db
        .select({ personaId: attempts.personaId, ...attemptSpend })
        .from(attempts)
        .$dynamic(),
      teamId,
      gte(attempts.endedAt, since),
    )
      .groupBy(attempts.personaId)
      .orderBy(attempts.personaId)
      .limit(MAX_LIST),
  ] as const;
}

/** the team's mode ceiling and its last automatic rollback */
function modeQueries(db: DrizzleD1Database, teamId: string) {
  return [
    db.select().from(teamModes).where(eq(teamModes.teamId, teamId)).limit(1),
    db
      .select({ createdAt: auditLog.createdAt, metadata: auditLog.metadata })
      .from(auditLog)
      .where(and(eq(auditLog.teamId, teamId), eq(auditLog.action, "policy.rollback")))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(1),
  ] as const;
}

/** the rows a tuple of queries answers */
type Rows<Q extends readonly unknown[]> = { -readonly [K in keyof Q]: Awaited<Q[K]> };

function toCurrent([runRows, tokenRows, budgetRows, gateRows, dlRows]: Rows<ReturnType<typeof currentQueries>>) {
  const tokens = new Map(tokenRows.map((r) => [r.runId, r]));
  const budgets = new Map(budgetRows.map((r) => [r.runId, r.budget]));
  return {
    runs: runRows.map((r) => ({
      run_id: r.runId,
      goal: r.goal,
      status: r.status,
      kind: r.kind,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      tokens_in: num(tokens.get(r.runId)?.tokensIn),
      tokens_out: num(tokens.get(r.runId)?.tokensOut),
      budget_tokens: budgets.get(r.runId) == null ? null : num(budgets.get(r.runId)),
      budget_breaches: num(tokens.get(r.runId)?.breaches),
    })),
    openGates: gateRows.map((g) => ({
      gate_id: g.gateId,
      run_id: g.runId,
      policy_key: g.policyKey,
      kind: g.kind,
      opened_at: num(g.openedAt),
    })),
    deadLetters: dlRows.map((d) => ({
      id: d.id,
      run_id: d.runId,
      op_id: d.opId,
      reason_code: d.reasonCode,
      created_at: d.createdAt,
    })),
  };
}

function toWindow([taskRows, taskBudgetRows, [approvals], latencyRows, attemptRows, dlTimes, personaRows]: Rows<
  ReturnType<typeof windowQueries>
>) {
  const taskBudgets = new Map(taskBudgetRows.map((r) => [r.taskId, r.budget]));
  return {
    taskSpend: taskRows.map((t) => ({
      task_id: t.taskId,
      tokens_in: num(t.tokensIn),
      tokens_out: num(t.tokensOut),
      budget_tokens: taskBudgets.get(t.taskId) == null ? null : num(taskBudgets.get(t.taskId)),
    })),
    personaSpend: personaRows.map((p) => ({
      persona_id: p.personaId,
      tokens_in: num(p.tokensIn),
      tokens_out: num(p.tokensOut),
    })),
    approvals: {
      auto: num(approvals?.auto),
      human: num(approvals?.human),
      humanLatenciesMs: latencyRows.map((r) => num(r.latencyMs)),
    },
    attempts: attemptRows.map((a) => ({
      outcome: a.outcome,
      next: a.next,
      started_at: a.startedAt,
      ended_at: a.endedAt,
    })),
    deadLetterTimes: dlTimes.map((d) => d.createdAt),
  };
}

function toMode([[mode], [rollback]]: Rows<ReturnType<typeof modeQueries>>) {
  return {
    mode: mode
      ? { ceiling: mode.ceiling, reason: mode.reason, updated_at: mode.updatedAt }
      : { ceiling: "enforce", reason: null, updated_at: null },
    lastRollback: rollback
      ? {
          at: rollback.createdAt,
          metadata:
            rollback.metadata !== null && typeof rollback.metadata === "object"
              ? (rollback.metadata as Record<string, unknown>)
              : {},
        }
      : null,
  };
}

/** the team overview and one run's attempts */
function teamAndRunViews(db: DrizzleD1Database): Pick<OverviewStore, "teamOverview" | "runAttempts"> {
  return {
    async teamOverview(teamId, since) {
      // one round trip; the slices are the three groups of queries, in order
      const [r0, r1, r2, r3, r4, w0, w1, w2, w3, w4, w5, w6, m0, m1] = await db.batch([
        ...currentQueries(db, teamId),
        ...windowQueries(db, teamId, since),
        ...modeQueries(db, teamId),
      ]);
      return {
        ...toCurrent([r0, r1, r2, r3, r4]),
        ...toWindow([w0, w1, w2, w3, w4, w5, w6]),
        ...toMode([m0, m1]),
      };
    },

    async runAttempts(teamId, runId) {
      const columns = {
        opId: attempts.opId,
        orderId: attempts.orderId,
        outcome: attempts.outcome,
        failureClass: attempts.failureClass,
        next: attempts.next,
        holder: attempts.holder,
        tokensIn: attempts.tokensIn,
        tokensOut: attempts.tokensOut,
        startedAt: attempts.startedAt,
        endedAt: attempts.endedAt,
      };
      const rows = await teamAttempts(db.select(columns).from(attempts).$dynamic(), teamId, eq(attempts.runId, runId))
        .orderBy(asc(attempts.endedAt), asc(attempts.attemptId))
        .limit(500);
      return rows.map((r) => ({
        op_id: r.opId,
        order_id: r.orderId,
        outcome: r.outcome,
        failure_class: r.failureClass,
        next: r.next,
        holder: r.holder,
        tokens_in: r.tokensIn,
        tokens_out: r.tokensOut,
        started_at: r.startedAt,
        ended_at: r.endedAt,
      }));
    },
  };
}

/** the gate cards of the pages (each gate with its run, order and Slack message) */
function gateCardViews(db: DrizzleD1Database): Pick<OverviewStore, "gateCards"> {
  return {
    async gateCards(teamId, gateIds) {
      if (gateIds.length === 0) return [];
      const keys = gateIds.slice(0, MAX_LIST * 2).map((id) => `gate:${id}`);
      const rows = await db
        .select({
          key: slackMessages.key,
          channel: slackMessages.channel,
          ts: slackMessages.ts,
          workspaceId: slackInstallations.workspaceId,
        })
        .from(slackMessages)
        .innerJoin(slackInstallations, eq(slackInstallations.teamId, slackMessages.teamId))
        .where(and(eq(slackMessages.teamId, teamId), inArray(slackMessages.key, keys)));
      return rows.map((r) => ({
        gate_id: r.key.slice("gate:".length),
        workspace_id: r.workspaceId,
        channel: r.channel,
        ts: r.ts,
      }));
    },
  };
}

export function createD1OverviewStore(db: DrizzleD1Database): OverviewStore {
  return { ...teamAndRunViews(db), ...gateCardViews(db) };
}
