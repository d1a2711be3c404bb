// YARLI storage triggers, pure: which memory a task.failed / task.blocked event should leave behind.
import type { TaskSignal } from "./events";

/** Governance failures (policy denial, budget exceeded, gate failure) become semantic only once they recur. */
export const GOVERNANCE_REASONS = new Set([
  "policy_denied",
  "policy_denial",
  "budget_exceeded",
  "budget_breached",
  "gate_failed",
  "gate_denied",
]);
export const GOVERNANCE_RECURRENCE = 3;
export const SUMMARY_DETAIL_MAX = 200;

export type PlannedMemory = {
  namespace: string;
  class: "semantic" | "episodic";
  text: string;
  tags: string[];
  metadata: {
    run_id: string;
    task_id: string;
    event_id: string;
    reason: string | null;
    task_key: string;
    fingerprint: string;
    exit_code_bucket: string | null;
  };
};

export const isGovernance = (reason: string | null) => reason !== null && GOVERNANCE_REASONS.has(reason);

/** The stable signature of a failure: task key, reason bucket and exit-code bucket (hashed by the caller). */
export const signatureText = (s: Pick<TaskSignal, "taskKey" | "reason" | "exitCodeBucket">) =>
  `${s.taskKey}\u0000${s.reason ?? ""}\u0000${s.exitCodeBucket ?? ""}`;

function summary(s: TaskSignal, verb: string): string {
  const parts = [`task ${s.taskKey} ${verb}`, `reason ${s.reason ?? "unknown"}`];
  if (s.exitCodeBucket) parts.push(`exit ${s.exitCodeBucket}`);
  let text = `${parts.join("; ")}.`;
  if (s.detail) text += ` ${s.detail.replace(/\s+/g, " ").trim().slice(0, SUMMARY_DETAIL_MAX)}`;
  return text;
}

/**
 * task.failed → a short semantic memory in project/<project_id> (project "default" when the event names none);
 * a governance failure → semantic only when its signature has just recurred for the 3rd time, else nothing;
 * task.blocked → an episodic memory in run/<run_id>. task.completed leaves no memory.
 */
export function planTaskMemory(s: TaskSignal, signatureCount: number, fingerprint: string): PlannedMemory | null {
  const metadata = {
    run_id: s.runId,
    task_id: s.taskId,
    event_id: s.eventId,
    reason: s.reason,
    task_key: s.taskKey,
    fingerprint,
    exit_code_bucket: s.exitCodeBucket,
  };
  const root = `team/${s.teamId}`;
  if (s.type === "task.blocked") {
    return {
      namespace: `${root}/run/${s.runId}`,
      class: "episodic",
      text: summary(s, "blocked"),
      tags: ["task.blocked", ...(s.reason ? [s.reason] : [])],
      metadata,
    };
  }
  if (s.type !== "task.failed") return null;
  if (isGovernance(s.reason) && signatureCount !== GOVERNANCE_RECURRENCE) return null;
  return {
    namespace: `${root}/project/${s.projectId ?? "default"}`,
    class: "semantic",
    text: summary(s, "failed"),
    tags: ["task.failed", ...(s.reason ? [s.reason] : []), ...(isGovernance(s.reason) ? ["governance"] : [])],
    metadata,
  };
}
