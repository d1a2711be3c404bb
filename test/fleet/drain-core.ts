// The fleet's drain after the load (pure): which teams to poll next, and when to stop waiting for the log's reader.

/** How the wait ended: every team counted all it acknowledged, no team's count moved for a while, or time ran out. */
export type DrainEnd = "complete" | "stalled" | "cap";

export type DrainState = {
  /** teams whose reader total is still below what they acknowledged */
  pending: Set<string>;
  /** the sum of the pending teams' last totals, and how many rounds in a row it did not move */
  lastSum: number;
  stillRounds: number;
};

export const startDrain = (teams: Iterable<string>): DrainState => ({
  pending: new Set(teams),
  lastSum: -1,
  stillRounds: 0,
});

/**
 * One round of readings (the pending teams' reader totals) folded in. A team leaves `pending` once its total reaches
 * what it acknowledged (a later duplicate is the final check's to find, not the drain's). The wait ends at once when
 * no team is pending, after `stillLimit` rounds in which the pending teams' totals did not move, or past `capMs`.
 */
export function drainRound(
  state: DrainState,
  totals: Map<string, number>,
  acked: Map<string, number>,
  elapsedMs: number,
  limits: { stillLimit: number; capMs: number },
): { state: DrainState; end: DrainEnd | null } {
  const pending = new Set([...state.pending].filter((t) => (totals.get(t) ?? 0) < (acked.get(t) ?? 0)));
  const sum = [...state.pending].reduce((n, t) => n + (totals.get(t) ?? 0), 0);
  const moved = sum !== state.lastSum || pending.size !== state.pending.size;
  const next = { pending, lastSum: sum, stillRounds: moved ? 0 : state.stillRounds + 1 };
  if (pending.size === 0) return { state: next, end: "complete" };
  if (next.stillRounds >= limits.stillLimit) return { state: next, end: "stalled" };
  if (elapsedMs >= limits.capMs) return { state: next, end: "cap" };
  return { state: next, end: null };
}
