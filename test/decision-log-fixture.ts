// A logged decision with sensible defaults, for tests in workerd and in Node alike (no cloudflare:test import).
import type { LoggedDecision } from "../src/ports/decision-log";

/** A logged decision of `team` with sensible defaults (an enforce retry of vibe_fail). */
export function loggedDecision(team: string, id: string, createdAt: number, o: Partial<LoggedDecision> = {}) {
  return {
    decision_id: id,
    team_id: team,
    run_id: null,
    task_id: null,
    inputs: { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 },
    inputs_digest: "d".repeat(64),
    profile_version: 0,
    requested_mode: "enforce",
    effective_mode: "enforce",
    ceiling: "enforce",
    failure_class: "vibe_fail",
    attempt_bucket: "middle",
    rule_id: "enforce.vibe_fail.middle",
    raw_action: "retry",
    selected_action: "retry",
    created_at: createdAt,
    ...o,
  } satisfies LoggedDecision;
}
