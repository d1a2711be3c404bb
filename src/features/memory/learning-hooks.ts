// Connects the learning feature's memory ports to memory: YARLI task memories, vector index sync, card refresh after decay.
import { log } from "../../lib/log";
import type { MemoryIndexSync, TeamMemoryMaintenance } from "../../ports/memory-maintenance";
import type { VectorIndex } from "../../ports/vector-index";
import type { TaskMemorySink } from "../learning/domain";
import { teamCaller } from "./namespaces";
import type { MemoryService } from "./service";

/**
 * task.failed → semantic in project/<id>, task.blocked → episodic in run/<id>, through the same guarded write as
 * POST /v1/memory (near-duplicates reinforce). Refusals come back as rule ids; the consumer announces them itself.
 */
export function createTaskMemorySink(memory: MemoryService, now: () => number): TaskMemorySink {
  return {
    async store(teamId, m) {
      const pending: Promise<unknown>[] = [];
      try {
        const result = await memory.write(
          teamCaller(teamId),
          { namespace: m.namespace, class: m.class, text: m.text, tags: m.tags, metadata: m.metadata },
          now(),
          (work) => pending.push(work),
          { announce: false },
        );
        if (result.ok) return { ok: true, id: result.value.id };
        const error = result.error;
        return { ok: false, code: error.code, ruleIds: "ruleIds" in error && error.ruleIds ? error.ruleIds : [] };
      } finally {
        await Promise.allSettled(pending);
      }
    },
  };
}

/** Only hot memories are indexed: the sweep's tier moves and expiries leave the index here. */
export function createIndexSync(index: VectorIndex): MemoryIndexSync {
  return {
    async remove(teamId, ids) {
      if (ids.length) await index.delete(teamId, ids);
    },
  };
}

/** A team object's sweep, followed by a refresh of the team's index cards whose importance it decayed. */
export function createCardRefreshingMaintenance(
  inner: TeamMemoryMaintenance,
  memory: MemoryService,
): TeamMemoryMaintenance {
  return {
    teamsDue: (sweptBefore, limit) => inner.teamsDue(sweptBefore, limit),
    async sweepTeam(teamId, now, rules) {
      const report = await inner.sweepTeam(teamId, now, rules);
      try {
        await memory.refreshCardsSince(teamId, now);
      } catch (e) {
        log.error("memory card refresh after decay failed", { team_id: teamId, error: String(e) });
      }
      return report;
    },
  };
}
