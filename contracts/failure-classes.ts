// The two failure-class vocabularies as data: the run taxonomy (completions) and MemRL's (decide), and the mapping.
import { z } from "zod";
import { FAILURE_CLASSES } from "./memrl-policy";

/** MemRL failure classes: what POST /v1/policy/decide and the profiles' rules speak. */
export const MemrlFailureClass = z.enum(FAILURE_CLASSES).meta({
  id: "MemrlFailureClass",
  description: "MemRL failure class (decide, profiles, rollback metrics)",
});

/** Run-taxonomy classes: what a completion's failure_class speaks (the retry taxonomy, docs/runs.md). */
export const RUN_FAILURE_CLASSES = [
  "rate_limit",
  "transient",
  "timeout",
  "schema_invalid",
  "wrong_value",
  "capability_missing",
  "tool_error",
  "budget_exceeded",
] as const;
export const RunFailureClass = z.enum(RUN_FAILURE_CLASSES).meta({
  id: "RunFailureClass",
  description: "run-taxonomy failure class (completions); decide maps it to a MemRL class",
});
export type RunFailureClass = z.infer<typeof RunFailureClass>;

/** The MemRL class a run-taxonomy class is decided as (runs use it for completions; decide for run-style input). */
export const RUN_TO_MEMRL: Record<RunFailureClass, (typeof FAILURE_CLASSES)[number]> = {
  rate_limit: "phase_stall",
  transient: "phase_stall",
  timeout: "phase_timeout",
  tool_error: "phase_exit_error",
  schema_invalid: "vibe_fail",
  wrong_value: "vibe_fail",
  capability_missing: "crank_blocked",
  budget_exceeded: "crank_partial",
};

export const isRunFailureClass = (c: string): c is RunFailureClass =>
  (RUN_FAILURE_CLASSES as readonly string[]).includes(c);
export const isMemrlFailureClass = (c: string): c is (typeof FAILURE_CLASSES)[number] =>
  (FAILURE_CLASSES as readonly string[]).includes(c);
