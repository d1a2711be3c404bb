// The run engine's preparers: what a write operation reads before the pure reducer runs (the team's policy and gate
// rules, the start-of-run snapshot, memory hints, escalation timings, the deploy roster), handed to it in the command.
import { canonicalJson, sha256Hex } from "../../lib/digest";
import { log } from "../../lib/log";
import { own } from "../../lib/own";
import { within } from "../../lib/within";
import type { DeployApproverStore, GateRuleCache } from "../gates/domain";
import type { PolicyMemoryReader } from "../learning/domain";
import type { HintsProvider, MemoryHint } from "../memory/domain";
import type { TeamPolicyCache } from "../policy/domain";
import type { CommandOf, PreparedOp, RunState } from "./model";
import type { RunOpRequest, RunWriteOp } from "./operations";
import { buildSnapshot, type PolicySnapshot, withPolicyMemory } from "./snapshot";
import type { RunRecordStore } from "./store/run-record-port";

/** What the preparers read. */
export type PreparerNeeds = {
  policies: Pick<TeamPolicyCache, "get" | "invalidate">;
  gateRules: Pick<GateRuleCache, "get" | "invalidate">;
  runRecord: Pick<RunRecordStore, "retryAdjustments">;
  hints: HintsProvider;
  /** the team's policy memory for the start-of-run snapshot (R1) */
  policyMemory: PolicyMemoryReader;
  /** the team's hard-gate escalation timings ([level 1, level 2] ms; null = defaults), a per-isolate cache read with
   * the gate rules so opening a gate never waits on D1 for them; absent = defaults for every team */
  escalationTimings?: { get(teamId: string, now: number): Promise<[number, number] | null> };
  newId: (prefix: string) => string;
  /** the team's deploy approvers: when set, only they decide the control run's gates */
  deployApprovers: Pick<DeployApproverStore, "forTeam">;
};

export type Preparer<K extends RunWriteOp> = (
  runId: string,
  req: RunOpRequest<K>,
  now: number,
) => Promise<CommandOf<K>>;
export type Preparers = { [K in PreparedOp]: Preparer<K> };

const FAILURE_HINTS_WAIT_MS = 250;

/** One entry per operation with something to prepare (PreparedOp); `current` is the run's state as last committed. */
export function createPreparers(deps: PreparerNeeds, current: () => RunState | null): Preparers {
  return {
    create: async (runId, req, now) => {
      const [snapshot, hints] = await Promise.all([
        takeSnapshot(deps, req.actor.team_id, now),
        hintsFor(deps, req.actor.team_id, req.goal, req.skills, now),
      ]);
      return { type: "create", ...req, run_id: runId, kind: "agent", hints, snapshot };
    },
    lease: async (_runId, req) => ({ type: "lease", ...req, lease_id: deps.newId("lease") }),
    complete: async (runId, req, now) => {
      const { actor, ...body } = req;
      const [digest, policy, gate_rules, failure_hints, escalate_after_ms] = await Promise.all([
        sha256Hex(canonicalJson(body)),
        deps.policies.get(actor.team_id, now),
        deps.gateRules.get(actor.team_id, now),
        req.outcome === "PASS" ? [] : failureHints(deps, current(), actor.team_id, runId, req, now),
        req.outcome === "PASS" ? null : escalationTimings(deps, actor.team_id, now),
      ]);
      return { type: "complete", ...req, digest, policy, gate_rules, failure_hints, escalate_after_ms };
    },
    open_gate: async (_runId, req, now) => {
      const [gate_rules, escalate_after_ms] = await Promise.all([
        deps.gateRules.get(req.actor.team_id, now),
        escalationTimings(deps, req.actor.team_id, now),
      ]);
      return { type: "open_gate", ...req, gate_rules, escalate_after_ms };
    },
    decide_gate: async (_runId, req) => ({
      type: "decide_gate",
      ...req,
      // only a control run's gates (deploys) are the roster's; a failed read refuses the decision (no fail-open)
      deploy_approvers: current()?.run.kind === "control" ? await deps.deployApprovers.forTeam(req.actor.team_id) : [],
    }),
    propose_deploy: async (runId, req, now) => ({
      type: "propose_deploy",
      ...req,
      run_id: runId,
      nonce: deps.newId("dop"),
      escalate_after_ms: await escalationTimings(deps, req.actor.team_id, now),
    }),
  };
}

/** The team's escalation timings; unreadable → the defaults (a gate still escalates, at 15/60 min). */
async function escalationTimings(deps: PreparerNeeds, teamId: string, now: number): Promise<[number, number] | null> {
  try {
    return (await deps.escalationTimings?.get(teamId, now)) ?? null;
  } catch (e) {
    log.warn("escalation timings unreadable", { error: String(e) });
    return null;
  }
}

/** R1: the retry adjustments and the rest of the team's policy memory, read once; either failing gives defaults. */
async function takeSnapshot(deps: PreparerNeeds, teamId: string, now: number): Promise<PolicySnapshot> {
  const [retries, memory] = await Promise.allSettled([
    deps.runRecord.retryAdjustments(teamId),
    deps.policyMemory.snapshot(teamId, now),
  ]);
  const unreadable = (e: unknown) => log.error("policy memory unreadable at run start", { error: String(e) });
  let snapshot: PolicySnapshot;
  if (retries.status === "fulfilled") snapshot = buildSnapshot(retries.value, now);
  else {
    unreadable(retries.reason);
    snapshot = { ...buildSnapshot([], now), warnings: ["DTL-STRAT-001: policy memory unreadable; defaults apply"] };
  }
  if (memory.status === "fulfilled") return withPolicyMemory(snapshot, memory.value);
  unreadable(memory.reason);
  return withPolicyMemory(snapshot, {
    last_updated: null,
    entries: [],
    routing_weights: {},
    reset: { code: "DTL-STRAT-001", reason: "policy memory unreadable" },
    warnings: ["DTL-STRAT-001: policy memory entries unreadable; defaults apply"],
  });
}

/** task.observer.memory_hints for a failed attempt: never more than FAILURE_HINTS_WAIT_MS on the completion's path. */
async function failureHints(
  deps: PreparerNeeds,
  state: RunState | null,
  teamId: string,
  runId: string,
  req: RunOpRequest<"complete">,
  now: number,
): Promise<MemoryHint[]> {
  const order = state ? own(state.orders, req.order_id) : undefined;
  if (!order || (state && own(state.ops, req.op_id))) return [];
  const r = await within(
    deps.hints.forTaskFailure(
      teamId,
      { reasonBucket: req.failure_class ?? "unknown", taskKey: order.task_id, runId },
      now,
    ),
    FAILURE_HINTS_WAIT_MS,
    [] as MemoryHint[],
  );
  if (r.error !== undefined) log.warn("failure hints unavailable", { error: String(r.error) });
  return r.value;
}

async function hintsFor(deps: PreparerNeeds, teamId: string, goal: string, skills: string[], now: number) {
  try {
    return await deps.hints.forRunStart(teamId, { goal, taskKeys: skills }, now);
  } catch (e) {
    log.warn("hints unavailable at run start", { error: String(e) });
    return [];
  }
}
