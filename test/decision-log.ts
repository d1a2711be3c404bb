// Test helpers for the decision log on R2 (issue 27): log decisions through the real writer, read back what R2 holds.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { makeDeps, makeJournalFlushNeeds } from "../src/deps";
import { appendDecisions } from "../src/features/policy";
import { decodeDecisions, teamPrefix } from "../src/features/policy/decision-log-layout";
import type { LoggedDecision } from "../src/features/policy/store/policy-store-port";
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

/** The team's counter rows, summed per (failure class, mode, action). */
export async function counterRows(team: string) {
  const { results } = await env.DB.prepare(
    `SELECT failure_class, mode, action, sum(decisions) AS decisions, sum(unknown_class) AS unknown_class,
       sum(missing_metadata) AS missing_metadata FROM decision_counter WHERE team_id = ?
     GROUP BY failure_class, mode, action ORDER BY failure_class, mode, action`,
  )
    .bind(team)
    .all<Record<string, string | number>>();
  return results;
}
