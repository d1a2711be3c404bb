// Use-case: reads a team's decision log — the R2 objects of the hours in a window (plus D1 rows from before the move),
// and the counts the metrics and the rollback matrix take: whole hours from the counters, the partial first hour exact.
import type { DecisionCounts } from "../../ports/decision-log";
import type { DecisionLogNeeds } from "./decision-log";
import {
  addCounts,
  countersOf,
  decodeDecisions,
  HOUR_MS,
  hourName,
  hourOf,
  hourOfKey,
  hourPrefix,
  mergeDecisions,
  sumCounters,
  teamPrefix,
} from "./decision-log-layout";
import type { LoggedDecision } from "./store/policy-store-port";

/** objects fetched at once (a Worker queues connections past six; this bounds what one read holds in memory) */
const GETS_AT_ONCE = 32;

export type DecisionWindow = {
  /** oldest first, one per decision_id, at most `limit` */
  decisions: LoggedDecision[];
  /** the UTC hours whose objects were read ("2026-11-27T14:00:00Z"), oldest first */
  hours_read: string[];
};

/** Keys by hour, ascending, keeping only the hours in [fromHour, untilMs). */
function keysByHour(teamId: string, keys: readonly string[], fromHour: number, untilMs: number) {
  const hours = new Map<number, string[]>();
  for (const key of keys) {
    const hour = hourOfKey(teamId, key);
    if (hour === null || hour < fromHour || hour >= untilMs) continue;
    hours.set(hour, [...(hours.get(hour) ?? []), key]);
  }
  return [...hours.entries()].sort(([a], [b]) => a - b);
}

async function readObjects(deps: Pick<DecisionLogNeeds, "decisionObjects">, keys: readonly string[]) {
  const out: LoggedDecision[] = [];
  for (let i = 0; i < keys.length; i += GETS_AT_ONCE) {
    const bodies = await Promise.all(keys.slice(i, i + GETS_AT_ONCE).map((k) => deps.decisionObjects.get(k)));
    for (const body of bodies) if (body !== null) out.push(...decodeDecisions(body));
  }
  return out;
}

/**
 * The team's logged decisions with `sinceMs <= created_at < untilMs`, oldest first, at most `limit`: lists the team's
 * keys from the first hour of the window on, reads hour by hour and stops after the hour that reaches the limit.
 * The keys are built from `teamId` alone, which callers take from the verified token.
 */
export async function readDecisions(
  deps: Pick<DecisionLogNeeds, "decisionObjects" | "policyStore">,
  teamId: string,
  sinceMs: number,
  limit: number,
  untilMs = Number.POSITIVE_INFINITY,
): Promise<DecisionWindow> {
  const fromHour = hourOf(sinceMs);
  const oneHour = untilMs <= fromHour + HOUR_MS;
  const [keys, legacy] = await Promise.all([
    oneHour
      ? deps.decisionObjects.list(hourPrefix(teamId, fromHour), "")
      : deps.decisionObjects.list(teamPrefix(teamId), hourPrefix(teamId, fromHour)),
    deps.policyStore.loggedDecisions(teamId, sinceMs, limit),
  ]);
  const inWindow = (d: LoggedDecision) => d.created_at >= sinceMs && d.created_at < untilMs;
  const fromR2: LoggedDecision[] = [];
  const hoursRead: string[] = [];
  for (const [hour, hourKeys] of keysByHour(teamId, keys, fromHour, untilMs)) {
    fromR2.push(...(await readObjects(deps, hourKeys)).filter(inWindow));
    hoursRead.push(hourName(hour));
    if (mergeDecisions(fromR2).length >= limit) break;
  }
  const decisions = mergeDecisions(fromR2, legacy.filter(inWindow)).slice(0, limit);
  return { decisions, hours_read: hoursRead };
}

/** Decisions a single hour may hold for the exact count of a window's partial first hour (R2 + D1 rows). */
const MAX_DECISIONS_PER_HOUR = 1_000_000;

/**
 * The team's counts since `sinceMs`: whole hours from the counters (one D1 read), the partial hour the window starts
 * in from its objects, so a window like 90m counts exactly what a per-decision table would have.
 */
export async function countDecisions(
  deps: Pick<DecisionLogNeeds, "decisionObjects" | "decisionCounters" | "policyStore">,
  teamId: string,
  sinceMs: number,
): Promise<DecisionCounts> {
  const firstWholeHour = hourOf(sinceMs) === sinceMs ? sinceMs : hourOf(sinceMs) + HOUR_MS;
  const [whole, partial] = await Promise.all([
    deps.decisionCounters.counts(teamId, firstWholeHour),
    firstWholeHour > sinceMs
      ? readDecisions(deps, teamId, sinceMs, MAX_DECISIONS_PER_HOUR, firstWholeHour)
      : Promise.resolve({ decisions: [], hours_read: [] }),
  ]);
  return addCounts(whole, sumCounters(countersOf(partial.decisions)));
}
