// Escalation of hard gates left open (pure): when each level falls due and what firing one records on the gate.
import type { Gate } from "./model";

export type EscalationLevel = 1 | 2;
export type Escalation = { level: EscalationLevel; at: number };

/**
 * How long after a hard gate opened each level falls due, unless the gate carries its team's own timings
 * (`escalate_after_ms`, from `settings.escalation_minutes`, read with the gate rules before the command ran): level 1
 * re-pings the approvers in the card's thread, level 2 calls the team's escalation target (docs/slack.md).
 */
export const ESCALATION_AFTER_MS: Record<EscalationLevel, number> = { 1: 15 * 60_000, 2: 60 * 60_000 };

/** The next level of an open hard gate and when it falls due; null once both fired, or the gate is not open/hard. */
export function nextEscalation(g: Gate): Escalation | null {
  if (g.status !== "pending" || g.kind !== "hard") return null;
  const fired = g.escalations?.length ?? 0;
  if (fired >= 2) return null;
  const level = (fired + 1) as EscalationLevel;
  return { level, at: g.opened_at + (g.escalate_after_ms?.[level - 1] ?? ESCALATION_AFTER_MS[level]) };
}

/**
 * The levels due at `now`, in order, each at most once (a late alarm fires both at once), and the gate with them
 * recorded. Nothing due → the same gate and no levels.
 */
export function escalate(g: Gate, now: number): { gate: Gate; fired: Escalation[] } {
  const fired: Escalation[] = [];
  let cur = g;
  for (let next = nextEscalation(cur); next !== null && next.at <= now; next = nextEscalation(cur)) {
    fired.push(next);
    cur = { ...cur, escalations: [...(cur.escalations ?? []), next] };
  }
  return { gate: cur, fired };
}
