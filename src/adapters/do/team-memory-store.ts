// MemoryStore and the memory sweep over the team objects (VECTOR_INDEX, idFromName(team_id)): one RPC per port call.

import type { TeamDoc, TeamMemoryRows } from "../../../durable-objects/team-memory-rows";
import type { MemoryCallOutcome, MemoryOp, VectorIndexDO } from "../../../durable-objects/vector-index-do";
import type { MemoryTeamRegistry } from "../../ports/memory-home";
import type { TeamMemoryMaintenance, TierRules } from "../../ports/memory-maintenance";
import type { MemoryMigrationTarget } from "../../ports/memory-migration";
import type { MemDoc, MemoryStore } from "../../ports/memory-store";

type Call = <K extends MemoryOp>(op: K, args: Parameters<TeamMemoryRows[K]>) => Promise<ReturnType<TeamMemoryRows[K]>>;

/** The team object of `teamId`: the name is the team id the caller passes, which comes from a verified token only. */
function teamObject(ns: DurableObjectNamespace<VectorIndexDO>, teamId: string) {
  const stub = ns.get(ns.idFromName(teamId));
  const rpc = stub as unknown as {
    memoryCall<K extends MemoryOp>(
      op: K,
      args: Parameters<TeamMemoryRows[K]>,
    ): Promise<MemoryCallOutcome<Awaited<ReturnType<TeamMemoryRows[K]>>>>;
  };
  const call: Call = async (op, args) => {
    const outcome = await rpc.memoryCall(op, args);
    if (!outcome.ok) throw new Error(`team memory ${op}: ${outcome.error}`);
    return outcome.value;
  };
  return { call, sweep: (now: number, rules: TierRules) => stub.memorySweep(now, rules) };
}

const withTeam = <T extends TeamDoc>(teamId: string, d: T) => ({ ...d, teamId });
const withoutTeam = ({ teamId: _team, ...d }: MemDoc): TeamDoc => d;

/** Inserts docs team by team, each team listed in the registry before its first insert of this isolate. */
async function insertByTeam(
  docs: MemDoc[],
  registered: Set<string>,
  registry: MemoryTeamRegistry,
  team: (teamId: string) => Call,
) {
  const byTeam = new Map<string, TeamDoc[]>();
  for (const d of docs) byTeam.set(d.teamId, [...(byTeam.get(d.teamId) ?? []), withoutTeam(d)]);
  for (const [teamId, rows] of byTeam) {
    if (!registered.has(teamId)) {
      await registry.register(teamId, Math.min(...rows.map((r) => r.createdAt)));
      registered.add(teamId);
    }
    await team(teamId)("insertDocs", [rows]);
  }
}

/** Session episodes and activations stay in D1: the D1 MemoryStore serves those calls. */
function sessionCalls(
  rows: MemoryStore,
): Pick<
  MemoryStore,
  "insertSessionEvent" | "sessionEventsForFingerprints" | "recentSessionEvents" | "recordActivation"
> {
  return {
    insertSessionEvent: (e) => rows.insertSessionEvent(e),
    sessionEventsForFingerprints: (teamId, fingerprints, limit) =>
      rows.sessionEventsForFingerprints(teamId, fingerprints, limit),
    recentSessionEvents: (teamId, filter, limit) => rows.recentSessionEvents(teamId, filter, limit),
    recordActivation: (a) => rows.recordActivation(a),
  };
}

/**
 * The memory rows of each team in its own object; session events and activations stay in D1 (`sessionRows`, the D1
 * MemoryStore, serves those calls). A team is listed in the registry before its first write (once per isolate), so
 * the daily sweep finds it.
 */
export function createTeamMemoryStore(
  ns: DurableObjectNamespace<VectorIndexDO>,
  sessionRows: MemoryStore,
  registry: MemoryTeamRegistry,
): MemoryStore {
  const registered = new Set<string>();
  const team = (teamId: string) => teamObject(ns, teamId).call;

  return {
    insertDocs: (docs) => insertByTeam(docs, registered, registry, team),
    async deleteDocs(teamId, ids) {
      if (ids.length) await team(teamId)("deleteDocs", [ids]);
    },
    async getDocs(teamId, ids) {
      if (!ids.length) return [];
      return (await team(teamId)("getDocs", [ids])).map((d) => withTeam(teamId, d));
    },
    async getHotDocsForActor(teamId, ids, actorKey, now) {
      if (!ids.length) return [];
      return (await team(teamId)("getHotDocsForActor", [ids, actorKey, now])).map((d) => withTeam(teamId, d));
    },
    async findByContentHash(teamId, hash) {
      const [found] = await team(teamId)("findByContentHashes", [[hash]]);
      return found ? withTeam(teamId, found[1]) : null;
    },
    async findByContentHashes(teamId, hashes) {
      if (!hashes.length) return new Map();
      const pairs = await team(teamId)("findByContentHashes", [hashes]);
      return new Map(pairs.map(([hash, d]) => [hash, withTeam(teamId, d)]));
    },
    reinforce: (teamId, id, now) => team(teamId)("reinforce", [id, now]),
    async recordUses(teamId, uses, now) {
      return uses.length ? team(teamId)("recordUses", [uses, now]) : [];
    },
    async rigidDocs(teamId, limit) {
      return (await team(teamId)("rigidDocs", [limit])).map((d) => withTeam(teamId, d));
    },
    archiveRigid: (teamId, namespace, kind, now) => team(teamId)("archiveRigid", [namespace, kind, now]),
    ...sessionCalls(sessionRows),
    async setTier(teamId, ids, tier, now) {
      if (ids.length) await team(teamId)("setTier", [ids, tier, now]);
    },
    importanceChangedSince: (teamId, since, afterId, limit) =>
      team(teamId)("importanceChangedSince", [since, afterId, limit]),
    async hotDocsPage(teamId, afterId, limit) {
      return (await team(teamId)("hotDocsPage", [afterId, limit])).map((d) => withTeam(teamId, d));
    },
  };
}

/** The daily sweep per team object: the registry says which teams are due; each sweep is one RPC, then marked. */
export function createTeamMemoryMaintenance(
  ns: DurableObjectNamespace<VectorIndexDO>,
  registry: MemoryTeamRegistry,
): TeamMemoryMaintenance {
  return {
    teamsDue: (sweptBefore, limit) => registry.due(sweptBefore, limit),
    async sweepTeam(teamId, now, rules) {
      const counts = await teamObject(ns, teamId).sweep(now, rules);
      await registry.markSwept(teamId, now);
      return counts;
    },
  };
}

/** The copy job's target: a page of D1's rows into the team's object (insert-or-ignore), and the object's digest. */
export function createTeamMemoryImport(ns: DurableObjectNamespace<VectorIndexDO>): MemoryMigrationTarget {
  return {
    importRows: (teamId, page) =>
      teamObject(ns, teamId).call("importRows", [{ ...page, docs: page.docs.map(withoutTeam) }]),
    digest: async (teamId) => await teamObject(ns, teamId).call("digest", []),
  };
}
