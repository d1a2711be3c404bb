// A run's graph at a glance (pure): items passed of total, what is in flight, and the failing chain.

/** What progress reads of an item (the run view's `items`). */
export type ProgressItem = { item_id: string; state: string; depends_on: readonly string[]; skipped_by?: string };

export type GraphProgress = {
  total: number;
  passed: number;
  /** items per state, only the states present */
  by_state: Record<string, number>;
  /** each dead-lettered item with everything skipped behind it (directly or through another skip) */
  failing: Array<{ item_id: string; skipped: string[] }>;
};

/** The skipped items downstream of `root`: followed through `skipped_by`, breadth first, each once. */
function skippedBehind(root: string, items: readonly ProgressItem[]): string[] {
  const out: string[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length) {
    const at = queue.shift() as string;
    for (const i of items)
      if (i.state === "skipped" && i.skipped_by === at && !seen.has(i.item_id)) {
        seen.add(i.item_id);
        out.push(i.item_id);
        queue.push(i.item_id);
      }
  }
  return out;
}

export function graphProgress(items: readonly ProgressItem[]): GraphProgress {
  const by_state: Record<string, number> = {};
  for (const i of items) by_state[i.state] = (by_state[i.state] ?? 0) + 1;
  const failing = items
    .filter((i) => i.state === "dead_letter")
    .map((i) => ({ item_id: i.item_id, skipped: skippedBehind(i.item_id, items) }));
  return { total: items.length, passed: by_state.passed ?? 0, by_state, failing };
}

const STATE_ORDER = ["leased", "ready", "waiting", "dead_letter", "skipped", "cancelled"];
const MAX_NAMED = 5;
const named = (ids: readonly string[]) =>
  ids.length <= MAX_NAMED ? ids.join(", ") : `${ids.slice(0, MAX_NAMED).join(", ")} and ${ids.length - MAX_NAMED} more`;

/** One line: `2/4 items passed · 1 leased · 1 dead_letter — failing: extract-a (skipped: persist-a)`; "" without items. */
export function graphProgressText(items: readonly ProgressItem[]): string {
  if (items.length === 0) return "";
  const p = graphProgress(items);
  const states = STATE_ORDER.filter((s) => p.by_state[s]).map((s) => `${p.by_state[s]} ${s}`);
  const failing = p.failing
    .slice(0, MAX_NAMED)
    .map((f) => (f.skipped.length ? `${f.item_id} (skipped: ${named(f.skipped)})` : f.item_id));
  const more = p.failing.length > MAX_NAMED ? ` and ${p.failing.length - MAX_NAMED} more` : "";
  return [
    [`${p.passed}/${p.total} items passed`, ...states].join(" · "),
    failing.length ? ` — failing: ${failing.join("; ")}${more}` : "",
  ].join("");
}
