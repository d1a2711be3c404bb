// Use-cases over policy memory: the start-of-run snapshot (R1) and routing by effective weight.
import { log } from "../../lib/log";
import { contextHash } from "./consume";
import { buildSnapshot, type PolicyMemorySnapshot, type RankedSkill, rankSkills } from "./policy-memory";
import type { LearningStore } from "./store/learning-store-port";

/**
 * The team's policy memory as of `now` (decay applied, sorted, defaults for anything missing). Runs call this once
 * at start and keep the result for their whole life (R1). A corrupted store yields the defaults and DTL-STRAT-001.
 */
export async function snapshotPolicyMemory(
  deps: { learningStore: LearningStore },
  teamId: string,
  now: number,
): Promise<PolicyMemorySnapshot> {
  const { entries, retries } = await deps.learningStore.snapshotRows(teamId);
  const snapshot = buildSnapshot(teamId, entries, retries, now);
  if (snapshot.reset) {
    log.error("policy memory reset", { code: snapshot.reset.code, team_id: teamId, reason: snapshot.reset.reason });
  }
  for (const w of snapshot.warnings) {
    if (!snapshot.reset) log.warn("policy memory", { team_id: teamId, warning: w });
  }
  return snapshot;
}

/** `context` is the query type: a string, or any JSON value (hashed canonically). */
export async function rankForRouting(
  deps: { learningStore: LearningStore },
  teamId: string,
  skills: string[],
  context: string | null,
  now: number,
): Promise<{ ranked: RankedSkill[]; context_hash: string; snapshot_taken_at: string }> {
  const snapshot = await snapshotPolicyMemory(deps, teamId, now);
  const hash = await contextHash(context);
  return { ranked: rankSkills(snapshot, skills, hash), context_hash: hash, snapshot_taken_at: snapshot.taken_at };
}
