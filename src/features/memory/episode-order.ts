// Episode order (pure): a session's episodes replayed in the order the agent numbered them, across the team's log.

/**
 * Puts every session's episodes in `episode_index` order while keeping the slots the session holds in the log: rows
 * arrive oldest first, and the episodes of one session are re-dealt over that session's own positions, sorted by
 * index (a missing index counts as 0), ties kept in arrival order. So "tried → failed → fallback resolved" replays in
 * that order even when two posts landed in the same millisecond or out of order, and other sessions do not move.
 */
export function orderEpisodes<T>(
  rows: T[],
  key: (row: T) => { session: string; index: number | null | undefined },
): T[] {
  const slots = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const k = key(r).session;
    const s = slots.get(k);
    if (s) s.push(i);
    else slots.set(k, [i]);
  });
  const out = rows.slice();
  for (const positions of slots.values()) {
    if (positions.length < 2) continue;
    const sorted = positions
      .map((p) => rows[p] as T)
      .map((r, arrival) => ({ r, arrival, index: key(r).index ?? 0 }))
      .sort((a, b) => a.index - b.index || a.arrival - b.arrival);
    positions.forEach((p, i) => {
      out[p] = (sorted[i] as { r: T }).r;
    });
  }
  return out;
}
