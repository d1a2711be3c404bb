// The policy-memory snapshot a decision with a run_id uses: the run's own start snapshot (R1), checked for staleness.
import type { Principal } from "../../auth/tokens";
import type { PolicyMemoryReader } from "../learning/domain";
import { actorOf, type PolicySnapshot, type RunsService, staleness } from "../runs";
import type { DecideDeps } from "./decide";

export type RunSnapshotRead = { snapshot: PolicySnapshot; stale: string | null };
/** null when the team has no such run (the decision then uses live policy memory, with a warning) */
export type RunSnapshotReader = (principal: Principal, runId: string, now: number) => Promise<RunSnapshotRead | null>;

export function runSnapshotReader(deps: { runs: RunsService; policyMemory: PolicyMemoryReader }): RunSnapshotReader {
  return async (principal, runId, now) => {
    const [view, live] = await Promise.all([
      deps.runs.get(runId).view(runId, { actor: actorOf(principal) }),
      deps.policyMemory.snapshot(principal.teamId, now),
    ]);
    if (!view.ok) return null;
    const snapshot = view.value.policy_snapshot as PolicySnapshot;
    return { snapshot, stale: staleness(snapshot, now, live.last_updated) };
  };
}

/**
 * The decide use-case's deps per deps object (one per isolate and env, see makeDeps): built on first use instead of
 * copying every dependency into a new object on each request (the decide route and the MCP tool share it).
 */
const decideDepsByDeps = new WeakMap<object, DecideDeps>();
export function decideDepsOf<
  D extends Omit<DecideDeps, "runSnapshot"> & { runs: RunsService; policyMemory: PolicyMemoryReader },
>(deps: D): D & DecideDeps {
  let built = decideDepsByDeps.get(deps) as (D & DecideDeps) | undefined;
  if (built === undefined) {
    built = { ...deps, runSnapshot: runSnapshotReader(deps) };
    decideDepsByDeps.set(deps, built);
  }
  return built;
}
