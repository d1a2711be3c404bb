// The decision journal's pure rules: which journal rows the next flush writes, and how long a failed flush waits.

/** One journal row as the flush chooser sees it: its order, its decision and the flush batch that claimed it. */
export type JournalEntry = { seq: number; decisionId: string; batch: number | null };

/** What a flush writes: its batch number (the first seq it claimed), the rows' seqs, and whether it is a new claim. */
export type FlushChoice = { batch: number; seqs: number[]; fresh: boolean };

/** Decisions per flush: one R2 object per (team, hour) and one D1 batch for the lot. */
export const JOURNAL_FLUSH_LIMIT = 200;
/** how long an append waits for company before the flush (the alarm) runs: the decisions of one second share objects */
export const JOURNAL_FLUSH_DELAY_MS = 1_000;
/** a failed flush retries after 1 s, 2 s, 4 s … at most this */
export const JOURNAL_RETRY_MAX_MS = 60_000;
/** how long a flushed decision id is remembered, so a repeated append (a run outbox's retry) is not logged twice */
export const JOURNAL_DONE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The rows of the next flush, from the claimed rows and the oldest unclaimed ones (`rows`, any order). A batch an
 * earlier flush claimed and did not finish (a kill, a refused write) is written again with exactly its rows — so its
 * batch ids and object keys are the same and the manifest counts it once — before anything newer; otherwise the
 * oldest ≤ `limit` unclaimed rows form a new batch numbered by its first seq. Null when the journal is empty.
 */
export function chooseFlush(rows: readonly JournalEntry[], limit: number): FlushChoice | null {
  const claimed = rows.filter((r) => r.batch !== null);
  if (claimed.length > 0) {
    const batch = Math.min(...claimed.map((r) => r.batch as number));
    const seqs = claimed.filter((r) => r.batch === batch).map((r) => r.seq);
    return { batch, seqs: seqs.sort((a, b) => a - b), fresh: false };
  }
  const seqs = rows
    .map((r) => r.seq)
    .sort((a, b) => a - b)
    .slice(0, Math.max(1, limit));
  const first = seqs[0];
  return first === undefined ? null : { batch: first, seqs, fresh: true };
}

/** The wait before the next try after `failures` failed flushes in a row (≥ 1): doubling from 1 s, capped. */
export function journalRetryDelay(failures: number): number {
  return Math.min(JOURNAL_RETRY_MAX_MS, 1000 * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}

/**
 * How many decisions each of several appends written together added, given the ids the shared statement inserted: as
 * if the appends had run one after another in order — an id counts once, for the first append that carries it.
 */
export function sharesOfAdded(appends: readonly (readonly string[])[], inserted: Iterable<string>): number[] {
  const unclaimed = new Set(inserted);
  return appends.map((ids) => ids.filter((id) => unclaimed.delete(id)).length);
}
