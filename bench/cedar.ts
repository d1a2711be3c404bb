// Peer row: the built-in MemRL profile encoded as Cedar policies (@cedar-policy/cedar-wasm), checked equal to
// decide() over the whole input space, then timed against decide() on the same uniform stream.
import * as cedar from "@cedar-policy/cedar-wasm/nodejs";
import { FAILURE_CLASSES } from "../contracts/memrl-policy";
import { DEFAULT_PROFILE } from "../src/features/policy/default-profile";
import { compileProfile, DEFAULT_MAX_ATTEMPTS, type DecisionInput, decide } from "../src/features/policy/evaluator";
import type { Row } from "./harness";

/**
 * The default profile (every rule exact per mode × class × bucket: escalate on the final and overflow buckets and on
 * crank_blocked in enforce, retry otherwise; fail closed on missing metadata and unknown classes; the legacy action
 * selected below enforce) written as one Cedar question: may the caller retry? Allow ⇔ selected_action "retry".
 * The effective mode is enforce only when both the requested mode (default "off") and the team ceiling are enforce.
 */
export function cedarPolicies(): string {
  const known = `[${FAILURE_CLASSES.map((c) => `"${c}"`).join(", ")}]`;
  const enforce = `(context has memrl_mode && context.memrl_mode == "enforce" && context.ceiling == "enforce")`;
  const retryBucket = `(
      (context has max_attempts && context.max_attempts > 0 &&
        (context.attempt <= 1 || context.attempt < context.max_attempts)) ||
      (!(context has max_attempts) && context.attempt < ${DEFAULT_MAX_ATTEMPTS})
    )`;
  if (DEFAULT_PROFILE.default_mode !== "off") throw new Error("the Cedar encoding assumes default_mode off");
  return `
// below enforce, a caller's legacy action is the selected action
@id("legacy_retry")
permit (principal, action == Action::"retry", resource)
when { !${enforce} && context has legacy_action && context.legacy_action == "retry" };

// the profile's own action: retry on a known class in the initial or middle bucket, except crank_blocked in enforce
@id("profile_retry")
permit (principal, action == Action::"retry", resource)
when {
  (${enforce} || !(context has legacy_action)) &&
  context has failure_class && ${known}.contains(context.failure_class) &&
  context has attempt && ${retryBucket} &&
  !(${enforce} && context.failure_class == "crank_blocked")
};`;
}

type CedarContext = Record<string, string | number>;
function contextOf(input: DecisionInput, ceiling: string): CedarContext {
  const context: CedarContext = { ceiling };
  for (const [k, v] of Object.entries(input)) if (v !== undefined) context[k] = v as string | number;
  return context;
}

const PSET = "warden-default-profile";
const ask = (context: CedarContext) => {
  const answer = cedar.statefulIsAuthorized({
    principal: { type: "Agent", id: "caller" },
    action: { type: "Action", id: "retry" },
    resource: { type: "Run", id: "run" },
    context,
    preparsedPolicySetId: PSET,
    entities: [],
  });
  if (answer.type !== "success") throw new Error(`cedar: ${JSON.stringify(answer.errors)}`);
  return answer.response.decision === "allow";
};

/** How many of inputs × ceilings the given Cedar policies decide differently from decide() with the default profile. */
export function cedarMismatches(
  inputs: DecisionInput[],
  policies = cedarPolicies(),
): { checked: number; mismatches: number } {
  const parsed = cedar.preparsePolicySet(PSET, { staticPolicies: policies });
  if (parsed.type !== "success") throw new Error(`cedar policies do not parse: ${JSON.stringify(parsed.errors)}`);
  const compiled = compileProfile(DEFAULT_PROFILE, 0);
  let mismatches = 0;
  let checked = 0;
  for (const ceiling of ["off", "observe", "enforce"] as const)
    for (const input of inputs) {
      checked++;
      const warden = decide(compiled, input, { ceiling }).selected_action === "retry";
      if (ask(contextOf(input, ceiling)) !== warden) mismatches++;
    }
  return { checked, mismatches };
}

/** Equivalence over every input × every ceiling (0 mismatches required), then the peer timing row. */
export function cedarRows(inputs: DecisionInput[], stream: Uint32Array, decideOps: number): Row[] {
  const { checked, mismatches } = cedarMismatches(inputs);
  if (mismatches > 0) throw new Error(`Cedar encoding disagrees with decide() on ${mismatches} of ${checked} inputs`);
  const contexts = inputs.map((i) => contextOf(i, "enforce"));
  const n = 3_000;
  for (let i = 0; i < 300; i++) ask(contexts[stream[i] as number] as CedarContext); // warm-up
  const start = performance.now();
  for (let i = 0; i < n; i++) ask(contexts[stream[i] as number] as CedarContext);
  const cedarOps = n / ((performance.now() - start) / 1000);
  return [
    {
      section: "policy",
      metric: `Cedar-wasm 4.13, default profile as Cedar (${checked} inputs × ceilings, ${mismatches} mismatches)`,
      value: cedarOps,
      unit: "ops/s",
    },
    {
      section: "policy",
      metric: "decide() ÷ Cedar-wasm, uniform stream (Warden/Cedar)",
      value: decideOps / cedarOps,
      unit: "×",
      target: "reported (peer ratio)",
    },
  ];
}
