// makeDeps(env): the infra (config and shared adapters) plus every feature's services, composed from FEATURES once per isolate.
import { FEATURES, type FeatureNeeds, type FeatureServices } from "./features";
import type { JournalFlushNeeds } from "./features/policy";
import type { RunEngineNeeds } from "./features/runs";
import { type Infra, infra } from "./infra";
import { oncePer } from "./lib/once-per";

export { newId, systemClock } from "./infra";
export type { Clock } from "./ports/clock";

/** Everything a route, consumer or cron may be handed: the infra and the features' services. */
export type Deps = Infra & FeatureServices;

/** Fails `tsc` when a route, queue consumer or cron of the list reads a field the composition does not provide. */
export type DepsSatisfyFeatures = Deps extends FeatureNeeds ? true : never;
const depsSatisfyFeatures: DepsSatisfyFeatures = true;
void depsSatisfyFeatures;

/** Builds every feature's services in list order; a field given in `overrides` is used instead of building it. */
function compose(base: Infra, overrides: Partial<Deps>): Deps {
  const deps: Record<string, unknown> = { ...base };
  const given = overrides as Record<string, unknown>;
  for (const feature of FEATURES) {
    const providers: Record<string, (d: never) => unknown> = ("build" in feature && feature.build) || {};
    for (const [field, build] of Object.entries(providers)) {
      deps[field] = given[field] !== undefined ? given[field] : build(deps as never);
    }
  }
  return deps as Deps;
}

const isolateDeps = oncePer((env: Env) => compose(infra(env), {}));

/**
 * One Deps per env object (per isolate), so caches (tokens, compiled profiles) live across requests. Tests pass
 * overrides, and get Deps of their own: every field is the override when given, else built from the final fields (an
 * override is never used by some services and ignored by others).
 */
export function makeDeps(env: Env, overrides: Partial<Deps> = {}): Deps {
  if (Object.keys(overrides).length === 0) return isolateDeps(env);
  return compose(infra(env, overrides), overrides);
}

/** What a run's Durable Object uses, and nothing else; built once per isolate, its caches apart from the app's. */
export const makeRunEngineNeeds = oncePer((env: Env): RunEngineNeeds => {
  const d = compose(infra(env), {});
  return {
    policies: d.policies,
    gateRules: d.gateRules,
    policyStore: d.policyStore,
    gateRuleStore: d.gateRuleStore,
    routeLedger: d.routeLedger,
    runRecord: d.runRecord,
    events: d.events,
    decisionJournal: d.decisionJournal,
    hints: d.hints,
    policyMemory: d.policyMemory,
    newId: d.newId,
    slackStore: d.slackStore,
    escalationTimings: d.escalationTimings,
    board: d.board,
    teamLimitStore: d.teamLimitStore,
    deployApprovers: d.deployApproverStore,
    deployApproverStore: d.deployApproverStore,
  };
});

/** What a team object's journal flush uses (the decision log's writer and EVENTS); built once per isolate. */
export const makeJournalFlushNeeds = oncePer((env: Env): JournalFlushNeeds => {
  const i = infra(env);
  return {
    decisionObjects: i.decisionObjects,
    decisionCounters: i.decisionCounters,
    clock: i.clock,
    events: i.events,
  };
});
