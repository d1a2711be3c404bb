// Ports of the run feed and operator alerts: per-run feed state (status steps, mute) and alert occurrences in D1.

/** One line of a run's status reply in its feed thread, identified by the run event's sequence number. */
export type FeedStep = { seq: number; at: number; line: string; order_id?: string };

/** A run's feed as stored: the steps its status reply shows, that reply's content version, the mute and who set it. */
export type FeedRun = {
  run_id: string;
  team_id: string;
  steps: FeedStep[];
  version: number;
  muted: boolean;
  muted_by: string | null;
};

import type { AlertKind, AlertOccurrence } from "../../../lib/alert-kinds";

export type { AlertKind, AlertOccurrence };

export interface SlackFeedStore {
  feedRun(runId: string): Promise<FeedRun | null>;
  /**
   * Writes a run's steps and version if the stored version is still `expected` (null: no row yet); false when another
   * consumer wrote first (the caller retries on fresh state). The mute is left as it is.
   */
  saveFeedRun(run: Omit<FeedRun, "muted" | "muted_by">, expected: number | null, now: number): Promise<boolean>;
  /** Mutes (by `by`) or unmutes a run's feed; creates its row when the run has none yet. */
  setMuted(teamId: string, runId: string, muted: { by: string } | null, now: number): Promise<void>;
  /**
   * Records occurrences (a known id is ignored) and answers, per (team, kind, window start) they fall in, how many
   * occurrences that window holds: key `${team_id}|${kind}|${window_start}`.
   */
  recordAlerts(occurrences: (AlertOccurrence & { window_start: number })[]): Promise<Map<string, number>>;
}
