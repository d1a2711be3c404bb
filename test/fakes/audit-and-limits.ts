// In-memory fakes of the AuditLogStore, TeamLimitStore and DeployApproverStore ports, held to the same contract suites
// as the D1 adapters.
import { decodeAuditCursor, encodeAuditCursor } from "../../src/features/audit/domain";
import type { DeployApproverStore } from "../../src/features/gates/store/deploy-approvers-port";
import type { AuditEntry, AuditLogStore } from "../../src/ports/audit-log";
import type { TeamLimitRow, TeamLimitStore } from "../../src/ports/team-limits";

/** Newest first by created_at, then id, as D1's ORDER BY created_at DESC, id DESC (ids compared byte-wise). */
const newestFirst = (a: AuditEntry, b: AuditEntry) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Rows are copied in and out, so a caller mutating what it passed or got back changes nothing stored. */
export function createMemoryAuditLog(): AuditLogStore & { entries(): AuditEntry[] } {
  const byId = new Map<string, AuditEntry>();
  return {
    entries: () => [...byId.values()].map((e) => structuredClone(e)),
    async append(entries) {
      for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, structuredClone(e));
    },
    async list(teamId, q) {
      const after = q.cursor ? decodeAuditCursor(q.cursor) : null;
      const rows = [...byId.values()]
        .filter((e) => e.teamId === teamId && (!q.action || e.action === q.action))
        .filter((e) => !after || e.createdAt < after[0] || (e.createdAt === after[0] && e.id < after[1]))
        .sort(newestFirst)
        .slice(0, q.limit + 1);
      const entries = rows.slice(0, q.limit).map((e) => structuredClone(e));
      const last = entries[entries.length - 1];
      return { entries, nextCursor: rows.length > q.limit && last ? encodeAuditCursor(last) : null };
    },
  };
}

/**
 * A team's versioned requests pending behind a gate (versions 1, 2, … per team): `apply` runs `onApply` and appends the
 * audit entry once, for a pending version only — the shape both request stores share.
 */
function pendingVersions<T>(audit: AuditLogStore) {
  const byTeam = new Map<string, { payload: T; status: "pending" | "applied" }[]>();
  return {
    add(teamId: string, payload: T): number {
      const team = byTeam.get(teamId) ?? [];
      team.push({ payload, status: "pending" });
      byTeam.set(teamId, team);
      return team.length;
    },
    async apply(teamId: string, version: number, entry: AuditEntry, onApply: (payload: T) => void): Promise<boolean> {
      const request = byTeam.get(teamId)?.[version - 1];
      if (request?.status !== "pending") return false;
      request.status = "applied";
      onApply(request.payload);
      await audit.append([entry]);
      return true;
    },
  };
}

/** One row per team and route class; putAll writes its rows and its audit entry together (nothing can fail between). */
export function createMemoryTeamLimitStore(audit: AuditLogStore = createMemoryAuditLog()): TeamLimitStore {
  const rows = new Map<string, Map<string, TeamLimitRow>>();
  const requests = pendingVersions<TeamLimitRow[]>(audit);
  const put = (teamId: string, row: TeamLimitRow) => {
    const team = rows.get(teamId) ?? new Map<string, TeamLimitRow>();
    team.set(row.routeClass, { ...row });
    rows.set(teamId, team);
  };
  return {
    async forTeam(teamId) {
      return [...(rows.get(teamId)?.values() ?? [])].map((r) => ({ ...r }));
    },
    async put(teamId, row) {
      put(teamId, row);
    },
    async putAll(teamId, changed, _now, entry) {
      for (const row of changed) put(teamId, row);
      await audit.append([entry]);
    },
    async addRequest(teamId, asked) {
      return requests.add(
        teamId,
        asked.map((r) => ({ ...r })),
      );
    },
    applyRequest(teamId, version, _now, entry) {
      return requests.apply(teamId, version, entry, (asked) => {
        for (const row of asked) put(teamId, row);
      });
    },
  };
}

/** The roster and its versioned requests; applyRequest replaces the roster and appends the audit entry together. */
export function createMemoryDeployApproverStore(audit: AuditLogStore = createMemoryAuditLog()): DeployApproverStore {
  const rosters = new Map<string, string[]>();
  const requests = pendingVersions<string[]>(audit);
  return {
    async forTeam(teamId) {
      return [...(rosters.get(teamId) ?? [])].sort();
    },
    async addRequest(teamId, subjects) {
      return requests.add(teamId, [...subjects]);
    },
    applyRequest(teamId, version, _now, entry) {
      return requests.apply(teamId, version, entry, (subjects) => rosters.set(teamId, [...subjects]));
    },
  };
}
