// ArtifactStore over D1: artifact rows (one per R2 object), inserted under the team's byte quota in one statement, and
// the teams' retention settings (artifact_retention) the sweep reads.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { auditInsert } from "../../audit";
import { ARTIFACT_KINDS, type ArtifactKind } from "../domain";
import type { ArtifactRow, ArtifactStatus, ArtifactStore } from "./artifact-store-port";
import { artifactRetention, artifacts } from "./tables";

/** the row's uri names the bucket's object: "r2://artifacts/" + key */
const URI_PREFIX = "r2://artifacts/";
const DAY_MS = 86_400_000;
/** D1 binds at most 100 parameters per statement */
const IN_CHUNK = 90;

type Stored = typeof artifacts.$inferSelect;

const fromRow = (r: Stored): ArtifactRow => ({
  artifactId: r.artifactId,
  teamId: r.teamId,
  runId: r.runId,
  opId: r.opId,
  kind: r.kind as ArtifactKind,
  key: r.uri.startsWith(URI_PREFIX) ? r.uri.slice(URI_PREFIX.length) : r.uri,
  contentType: r.contentType,
  sizeBytes: r.sizeBytes,
  sha256: r.sha256,
  status: r.status as ArtifactStatus,
  gateId: r.gateId,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
});

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IN_CHUNK) out.push(items.slice(i, i + IN_CHUNK));
  return out;
}

/** artifact rows: the quota-checked insert, status and gate changes, deletes */
function artifactRowWrites(
  db: DrizzleD1Database,
): Pick<ArtifactStore, "insertWithinQuota" | "release" | "setGate" | "deleteRows"> {
  return {
    async insertWithinQuota(a, quotaBytes) {
      const res = await db.run(sql`
        INSERT INTO artifact (artifact_id, team_id, run_id, op_id, kind, uri, content_type, size_bytes, sha256,
          status, gate_id, created_by, created_at, expires_at)
        SELECT ${a.artifactId}, ${a.teamId}, ${a.runId}, ${a.opId}, ${a.kind}, ${URI_PREFIX + a.key},
          ${a.contentType}, ${a.sizeBytes}, ${a.sha256}, ${a.status}, ${a.gateId}, ${a.createdBy}, ${a.createdAt},
          ${a.expiresAt}
        WHERE (SELECT COALESCE(SUM(size_bytes), 0) FROM artifact WHERE team_id = ${a.teamId}) + ${a.sizeBytes}
          <= ${quotaBytes}`);
      return (res.meta.changes ?? 0) === 1;
    },
    async release(teamId, artifactId) {
      await db
        .update(artifacts)
        .set({ status: "released" })
        .where(and(eq(artifacts.teamId, teamId), eq(artifacts.artifactId, artifactId)));
    },
    async setGate(teamId, artifactId, gateId) {
      await db
        .update(artifacts)
        .set({ gateId })
        .where(and(eq(artifacts.teamId, teamId), eq(artifacts.artifactId, artifactId)));
    },
    async deleteRows(ids) {
      for (const part of chunks(ids)) await db.delete(artifacts).where(inArray(artifacts.artifactId, part));
    },
  };
}

/** artifact rows read by team, run, id or R2 key, and the bytes a team uses */
function artifactRowReads(
  db: DrizzleD1Database,
): Pick<ArtifactStore, "get" | "ownedBy" | "listForRun" | "usedBytes" | "keysWithRows"> {
  return {
    async get(teamId, artifactId) {
      const rows = await db
        .select()
        .from(artifacts)
        .where(and(eq(artifacts.teamId, teamId), eq(artifacts.artifactId, artifactId)));
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async ownedBy(teamId, runId, ids) {
      const found: string[] = [];
      for (const part of chunks([...new Set(ids)])) {
        const where = [eq(artifacts.teamId, teamId), inArray(artifacts.artifactId, part)];
        if (runId !== null) where.push(eq(artifacts.runId, runId));
        const rows = await db
          .select({ id: artifacts.artifactId })
          .from(artifacts)
          .where(and(...where));
        found.push(...rows.map((r) => r.id));
      }
      return found;
    },
    async listForRun(teamId, runId) {
      const rows = await db
        .select()
        .from(artifacts)
        .where(and(eq(artifacts.teamId, teamId), eq(artifacts.runId, runId)))
        .orderBy(asc(artifacts.createdAt), asc(artifacts.artifactId));
      return rows.map(fromRow);
    },
    async usedBytes(teamId) {
      const rows = await db
        .select({ used: sql<number>`COALESCE(SUM(${artifacts.sizeBytes}), 0)` })
        .from(artifacts)
        .where(eq(artifacts.teamId, teamId));
      return Number(rows[0]?.used ?? 0);
    },
    async keysWithRows(keys) {
      const found = new Set<string>();
      for (const part of chunks(keys)) {
        const rows = await db
          .select({ uri: artifacts.uri })
          .from(artifacts)
          .where(
            inArray(
              artifacts.uri,
              part.map((k) => URI_PREFIX + k),
            ),
          );
        for (const r of rows) found.add(r.uri.slice(URI_PREFIX.length));
      }
      return found;
    },
  };
}

/** per-team retention settings and the artifacts past them */
function artifactRetentionRows(db: DrizzleD1Database): Pick<ArtifactStore, "expired" | "retentionOf" | "putRetention"> {
  return {
    async expired(now, limit) {
      // two indexed passes: past their own expires_at, or older than their team's shorter setting for the kind
      const byTeam = db
        .select({ artifactId: artifacts.artifactId })
        .from(artifactRetention)
        .innerJoin(
          artifacts,
          and(
            eq(artifacts.teamId, artifactRetention.teamId),
            eq(artifacts.kind, artifactRetention.kind),
            sql`${artifacts.createdAt} <= ${now} - ${artifactRetention.days} * ${DAY_MS}`,
          ),
        );
      const rows = await db
        .select()
        .from(artifacts)
        .where(sql`${artifacts.expiresAt} <= ${now} OR ${artifacts.artifactId} IN ${byTeam}`)
        .orderBy(asc(artifacts.expiresAt))
        .limit(limit);
      return rows.map(fromRow);
    },
    async retentionOf(teamId) {
      const rows = await db.select().from(artifactRetention).where(eq(artifactRetention.teamId, teamId));
      return Object.fromEntries(
        rows.filter((r) => (ARTIFACT_KINDS as readonly string[]).includes(r.kind)).map((r) => [r.kind, r.days]),
      );
    },
    async putRetention(teamId, days, audit) {
      const upserts = Object.entries(days).map(([kind, d]) => {
        const values = { teamId, kind, days: d, updatedBy: audit.actor, updatedAt: audit.createdAt };
        return db
          .insert(artifactRetention)
          .values(values)
          .onConflictDoUpdate({ target: [artifactRetention.teamId, artifactRetention.kind], set: values });
      });
      await batchAll(db, [...upserts, auditInsert(db, audit)]);
    },
  };
}

export function createD1ArtifactStore(db: DrizzleD1Database): ArtifactStore {
  return { ...artifactRowWrites(db), ...artifactRowReads(db), ...artifactRetentionRows(db) };
}
