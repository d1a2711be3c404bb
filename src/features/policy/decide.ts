// Use-case: decide retry/escalate for a failed step; the answer leaves only once the decision is in the team's journal.

import {
  isMemrlFailureClass,
  isRunFailureClass,
  RUN_FAILURE_CLASSES,
  RUN_TO_MEMRL,
} from "../../../contracts/failure-classes";
import { FAILURE_CLASSES, type MemrlMode } from "../../../contracts/memrl-policy";
import type { Principal } from "../../auth/tokens";
import type { AppError } from "../../errors";
import { log } from "../../lib/log";
import { err, ok, type Result } from "../../lib/result";
import type { DecisionJournal } from "../../ports/decision-journal";
import type { PolicySnapshot } from "../runs";
import { type Decision, type DecisionInput, decide, decisionInput } from "./evaluator";
import type { RunSnapshotReader } from "./run-snapshot";
import type { LoggedDecision, PolicyStore } from "./store/policy-store-port";
import type { TeamPolicyCache } from "./team-policy-cache";

export type DecideRequest = DecisionInput & { run_id?: string; task_id?: string };

export type DecideDeps = {
  policies: TeamPolicyCache;
  policyStore: PolicyStore;
  /** the team's decision journal (its team object): the durable hand-off to the decision log */
  decisionJournal: DecisionJournal;
  newId: (prefix: string) => string;
  /** a decision with a run_id reads that run's start snapshot instead of live policy memory (seed 004 R1) */
  runSnapshot?: RunSnapshotReader;
};

export type DecideResult = Decision & {
  decision_id: string;
  profile: { team_id: string; version: number };
  /** the team's current mode ceiling (the effective mode is never above it) */
  mode_ceiling: MemrlMode;
  warnings?: string[];
};

/** A run-taxonomy class is decided as its MemRL class; an unknown class stays as sent (fail-closed) with a warning. */
export function normalizeFailureClass(fc: string | undefined): {
  failure_class: string | undefined;
  warnings: string[];
} {
  if (fc === undefined || isMemrlFailureClass(fc)) return { failure_class: fc, warnings: [] };
  if (isRunFailureClass(fc)) {
    const mapped = RUN_TO_MEMRL[fc];
    return {
      failure_class: mapped,
      warnings: [`failure_class "${fc}" is a run-taxonomy class: decided as MemRL class "${mapped}"`],
    };
  }
  return {
    failure_class: fc,
    warnings: [
      `unknown failure_class "${fc}": decided fail-closed and counted by the rollback matrix; MemRL classes: ` +
        `${FAILURE_CLASSES.join(", ")}; run-taxonomy classes (mapped): ${RUN_FAILURE_CLASSES.join(", ")} ` +
        "(GET /v1/policy/classes)",
    ],
  };
}

/** The run's max_attempts overrides by class, as its snapshot fixed them at start. */
function snapshotOverrides(snapshot: PolicySnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [cls, adj] of Object.entries(snapshot.retry_adjustments))
    if (adj.max_attempts_override !== null) out[cls] = adj.max_attempts_override;
  return out;
}

/** The decision as the log keeps it (its inputs digest is the consumer's to compute). */
function loggedDecision(
  decision_id: string,
  principal: Principal,
  request: DecideRequest,
  inputs: Record<string, unknown>,
  decision: Decision,
  profileVersion: number,
  ceiling: MemrlMode,
  now: number,
): LoggedDecision {
  return {
    decision_id,
    team_id: principal.teamId,
    run_id: request.run_id ?? principal.runId ?? null,
    task_id: request.task_id ?? principal.taskId ?? null,
    inputs,
    inputs_digest: "",
    profile_version: profileVersion,
    requested_mode: decision.requested_mode,
    effective_mode: decision.memrl_mode,
    ceiling,
    failure_class: decision.failure_class,
    attempt_bucket: decision.attempt_bucket,
    rule_id: decision.rule_id,
    raw_action: decision.action,
    selected_action: decision.selected_action,
    created_at: now,
  };
}

/** Appends the decision to the team's journal; a refusal is `unavailable`: nothing may be acknowledged. */
async function handToLog(deps: DecideDeps, d: LoggedDecision): Promise<Result<void, AppError>> {
  try {
    await deps.decisionJournal.append(d.team_id, [d]);
    return ok(undefined);
  } catch (e) {
    log.warn("decision not logged: the team's journal refused it", { error: String(e) });
    return err({
      code: "unavailable",
      retryAfterSeconds: 1,
      message: "the decision log is unavailable; retry shortly",
    });
  }
}

/**
 * Decides, then waits until the decision is a row of the team's decision journal (one RPC to the team object, durable
 * when it returns): the object's alarm writes it to the decision log and publishes its `policy.decided` event. A
 * journal that refuses is answered 503 `unavailable` — a decision the log may never see is not given.
 */
export async function decidePolicy(
  deps: DecideDeps,
  principal: Principal,
  request: DecideRequest,
  now: number,
): Promise<Result<DecideResult, AppError>> {
  const normalized = normalizeFailureClass(request.failure_class);
  if (normalized.failure_class !== request.failure_class)
    request = { ...request, failure_class: normalized.failure_class };
  const { compiled, ceiling } = await deps.policies.get(principal.teamId, now);
  const needsOverride = request.max_attempts === undefined && request.attempt !== undefined && !request.attempt_bucket;
  const warnings = [...normalized.warnings];
  const runId = request.run_id ?? principal.runId;
  const fromRun = runId !== undefined && deps.runSnapshot ? await deps.runSnapshot(principal, runId, now) : null;
  if (runId !== undefined && deps.runSnapshot && !fromRun)
    warnings.push(`run ${runId} not found for this team: decided with live policy memory`);
  if (fromRun?.stale) warnings.push(fromRun.stale);
  const maxAttemptsOverrides = !needsOverride
    ? undefined
    : fromRun
      ? snapshotOverrides(fromRun.snapshot)
      : await deps.policyStore.maxAttemptsOverrides(principal.teamId);
  const decision = decide(compiled, decisionInput(request), { ceiling, maxAttemptsOverrides });
  const decision_id = deps.newId("dec");
  const inputs: Record<string, unknown> = { ...request };
  if (maxAttemptsOverrides && request.failure_class && maxAttemptsOverrides[request.failure_class] !== undefined) {
    inputs.max_attempts = maxAttemptsOverrides[request.failure_class];
  }
  const logged = loggedDecision(decision_id, principal, request, inputs, decision, compiled.version, ceiling, now);
  const handed = await handToLog(deps, logged);
  if (!handed.ok) return handed;
  return ok({
    decision_id,
    ...decision,
    profile: { team_id: principal.teamId, version: compiled.version },
    mode_ceiling: ceiling,
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}
