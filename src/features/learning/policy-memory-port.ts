// Port: the team's policy memory as a run reads it at start (seed 004 R1): entries, routing weights, decay applied.
import type { EntryState } from "./store/learning-store-port";

/** One entry as a snapshot shows it: the stored counts, with times as ISO strings and its decayed weight. */
export type PolicyMemoryEntryView = Pick<
  EntryState,
  | "entry_id"
  | "skill_name"
  | "context_hash"
  | "success_count"
  | "failure_count"
  | "avg_cost_units"
  | "avg_steps"
  | "base_weight"
  | "archived"
  | "learning_stopped"
> & { last_used: string; created_at: string; decay_factor: number; effective_weight: number };

/** The strategy statistics of a team's policy memory (R5: nothing here is evidence or a fact). */
export type PolicyMemoryView = {
  last_updated: string | null;
  entries: PolicyMemoryEntryView[];
  /** skill → effective weight, for the default context */
  routing_weights: Record<string, number>;
  /** set when stored state failed validation and the snapshot fell back to defaults (DTL-STRAT-001) */
  reset: { code: string; reason: string } | null;
  warnings: string[];
};

export interface PolicyMemoryReader {
  /** the team's policy memory as of `now`; a corrupted store gives the defaults with a reset */
  snapshot(teamId: string, now: number): Promise<PolicyMemoryView>;
}
