// Use-case: decide retry/escalate for a failed step and hand the decision to the (batched) decision log.

import type { BufferedEventBus } from "../../adapters/queue/buffered-event-bus";
import type { Principal } from "../../auth/tokens";
import type { LoggedDecision, PolicyStore } from "../../ports/policy-store";
import { type Decision, type DecisionInput, decide } from "./evaluator";
import type { TeamPolicyCache } from "./team-policy-cache";

export type DecideRequest = DecisionInput & { run_id?: string; task_id?: string };

export type DecideDeps = {
  policies: TeamPolicyCache;
  policyStore: PolicyStore;
  decisionEvents: BufferedEventBus;
  newId: (prefix: string) => string;
};

export type DecideResult = Decision & { decision_id: string; profile: { team_id: string; version: number } };

/** `defer` keeps the log write off the response path (ctx.waitUntil); it is called once per coalesced batch. */
export async function decidePolicy(
  deps: DecideDeps,
  principal: Principal,
  request: DecideRequest,
  now: number,
  defer: (work: Promise<unknown>) => void,
): Promise<DecideResult> {
  const { compiled, ceiling } = await deps.policies.get(principal.teamId, now);
  const needsOverride = request.max_attempts === undefined && request.attempt !== undefined && !request.attempt_bucket;
  const maxAttemptsOverrides = needsOverride
    ? await deps.policyStore.maxAttemptsOverrides(principal.teamId)
    : undefined;
  const decision = decide(compiled, request, { ceiling, maxAttemptsOverrides });
  const decision_id = deps.newId("dec");
  const inputs: Record<string, unknown> = { ...request };
  if (maxAttemptsOverrides && request.failure_class && maxAttemptsOverrides[request.failure_class] !== undefined) {
    inputs.max_attempts = maxAttemptsOverrides[request.failure_class];
  }
  const logged: LoggedDecision = {
    decision_id,
    team_id: principal.teamId,
    run_id: request.run_id ?? principal.runId ?? null,
    task_id: request.task_id ?? principal.taskId ?? null,
    inputs,
    inputs_digest: "",
    profile_version: compiled.version,
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
  const flush = deps.decisionEvents.enqueue([
    { event_id: decision_id, type: "policy.decided", team_id: principal.teamId, occurred_at: now, decision: logged },
  ]);
  if (flush) defer(flush);
  return { decision_id, ...decision, profile: { team_id: principal.teamId, version: compiled.version } };
}
