// Test helpers for the decision log on R2 (issue 27): log decisions through the real writer, read back what R2 holds.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { makeDeps, makeJournalFlushNeeds } from "../src/deps";
import { appendDecisions } from "../src/features/policy";
import { decodeDecisions, teamPrefix } from "../src/features/policy/decision-log-layout";
import type { LoggedDecision } from "../src/features/policy/store/policy-store-port";
import { decisionCounters, decisionLogBatches } from "../src/features/policy/store/tables";
import type { EventBus } from "../src/ports/event-bus";

export { loggedDecision } from "./decision-log-fixture";

/** The team object of `team` (VECTOR_INDEX, idFromName(team_id)): memory rows and decision journal. */
export const teamObject = (team: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(team));

/** The decisions waiting in the team's journal, oldest first. */
export async function journalRows(team: string): Promise<LoggedDecision[]> {
  return runInDurableObject(teamObject(team), (o) => o.journalRows());
}

/** One journal flush of the team's object with its events sent to `events` instead of EVENTS (what subscribers get). */
export async function flushJournalTo(team: string, events: EventBus): Promise<void> {
  const needs = { ...makeJournalFlushNeeds(env), events };
  await runInDurableObject(teamObject(team), (o) => o.flushDecisions(needs));
}

/** Runs the team object's alarm until its journal is empty (each run flushes one batch), as the runtime would. */
export async function flushJournal(team: string): Promise<void> {
  for (let i = 0; i < 50 && (await journalRows(team)).length > 0; i++) await runDurableObjectAlarm(teamObject(team));
  const left = (await journalRows(team)).length;
  if (left > 0) throw new Error(`team ${team}: ${left} decisions still in the journal after 50 alarms`);
}

/** Writes decisions through the log's writer (R2 objects, counters, manifest), as the deciding isolate would. */
export async function logDecisions(decisions: LoggedDecision[]): Promise<void> {
  await appendDecisions(decisions, makeDeps(env));
}

/** Every object key of the team in the local DECISION_LOG bucket. */
export async function objectKeys(team: string): Promise<string[]> {
  const listed = await env.DECISION_LOG.list({ prefix: teamPrefix(team) });
  return listed.objects.map((o) => o.key);
}

/** Every decision the team's R2 objects hold (duplicates kept: a test counts them). */
export async function decisionsInR2(team: string): Promise<LoggedDecision[]> {
  const out: LoggedDecision[] = [];
  for (const key of await objectKeys(team)) {
    const object = await env.DECISION_LOG.get(key);
    if (object) out.push(...decodeDecisions(await object.text()));
  }
  return out;
}

/**
 * The team's counter rows, summed per (failure class, mode, action). A typed drizzle read of the policy feature's
 * decision_counter table: its port (DecisionCounterStore) only reads team totals (`counts`), not this breakdown.
 */
export async function counterRows(team: string) {
  const c = decisionCounters;
  return drizzle(env.DB)
    .select({
      failure_class: c.failureClass,
      mode: c.mode,
      action: c.action,
      decisions: sql<number>`sum(${c.decisions})`,
      unknown_class: sql<number>`sum(${c.unknownClass})`,
      missing_metadata: sql<number>`sum(${c.missingMetadata})`,
    })
    .from(c)
    .where(eq(c.teamId, team))
    .groupBy(c.failureClass, c.mode, c.action)
    .orderBy(c.failureClass, c.mode, c.action);
}

/**
 * The decision log's manifest row of a flush (none once pruned). A typed drizzle read of decision_log_batch: its port
 * (DecisionCounterStore) only writes and prunes the manifest, it has no read.
 */
export async function manifestRows(batchId: string) {
  const m = decisionLogBatches;
  return drizzle(env.DB)
    .select({ batch_id: m.batchId, decisions: m.decisions, objects: m.objects })
    .from(m)
    .where(eq(m.batchId, batchId));
}
