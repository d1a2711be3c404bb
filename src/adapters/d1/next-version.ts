// A team's versioned rows (profiles, rule sets, change requests): the next version taken inside the INSERT, and the key of a pending version.
import { and, desc, eq, getTableName, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AuditEntry } from "../../ports/audit-log";
import { batchAll } from "./batch";

type VersionedTable = SQLiteTable & { version: SQLiteColumn; teamId: SQLiteColumn };
type StatusVersionedTable = VersionedTable & { status: SQLiteColumn };
type RequestTable = StatusVersionedTable & { appliedAt: SQLiteColumn };
const VERSION_TRIES = 5;

/**
 * `(SELECT coalesce(max(version), 0) + 1 … WHERE team_id = ?)` as an insert value: SQLite evaluates it in the insert's
 * own write, so fifty concurrent proposals get fifty consecutive versions instead of primary-key conflicts.
 */
export function nextVersion(table: VersionedTable, teamId: string) {
  return sql<number>`(select coalesce(max(${table.version}), 0) + 1 from ${table} where ${table.teamId} = ${teamId})`;
}

/**
 * Inserts `row` as the team's next version and returns that version. The primary key (team_id, version) makes a
 * concurrent writer's insert do nothing instead of overwriting; it is tried again, at most VERSION_TRIES times.
 */
export async function insertNextVersion<T extends VersionedTable>(
  db: DrizzleD1Database,
  table: T,
  teamId: string,
  row: Omit<T["$inferInsert"], "teamId" | "version">,
): Promise<number> {
  for (let attempt = 0; attempt < VERSION_TRIES; attempt++) {
    const [inserted] = await db
      .insert(table)
      .values({ ...row, teamId, version: nextVersion(table, teamId) } as T["$inferInsert"])
      .onConflictDoNothing()
      .returning({ version: table.version });
    if (inserted) return inserted.version as number;
  }
  throw new Error(`team ${teamId}: no free ${getTableName(table)} version after ${VERSION_TRIES} attempts`);
}

/** The team's `version` while it is still pending: what a request's activation reads and marks applied. */
export function pendingVersion(table: StatusVersionedTable, teamId: string, version: number): SQL {
  return and(eq(table.teamId, teamId), eq(table.version, version), eq(table.status, "pending")) as SQL;
}

/** The team's active version (the newest, should two ever be active), if it has one. */
async function activeVersionRow<T extends StatusVersionedTable>(db: DrizzleD1Database, table: T, teamId: string) {
  const active = and(eq(table.teamId, teamId), eq(table.status, "active"));
  const [row] = await db
    .select()
    .from(table as SQLiteTable)
    .where(active)
    .orderBy(desc(table.version))
    .limit(1);
  return row as T["$inferSelect"] | undefined;
}

/** One version of the team's rows, whatever its status. */
async function versionRow<T extends VersionedTable>(db: DrizzleD1Database, table: T, teamId: string, v: number) {
  const [row] = await db
    .select()
    .from(table as SQLiteTable)
    .where(and(eq(table.teamId, teamId), eq(table.version, v)));
  return row as T["$inferSelect"] | undefined;
}

/** A versioned store's two reads, each row as the store shows it: the active version and one version (null: none). */
export function versionReads<T extends StatusVersionedTable, V>(
  db: DrizzleD1Database,
  table: T,
  toStored: (row: T["$inferSelect"]) => V,
) {
  return {
    async active(teamId: string): Promise<V | null> {
      const row = await activeVersionRow(db, table, teamId);
      return row ? toStored(row) : null;
    },
    async get(teamId: string, version: number): Promise<V | null> {
      const row = await versionRow(db, table, teamId, version);
      return row ? toStored(row) : null;
    },
  };
}

/**
 * The team's request `version` while it is pending, and the statement that marks it applied: the first activation to
 * run that statement changes one row (`appliedOnce`), a repeated one none, so a retried activation reports no change.
 */
export async function pendingRequest<T extends RequestTable>(
  db: DrizzleD1Database,
  table: T,
  teamId: string,
  version: number,
  now: number,
) {
  const where = pendingVersion(table, teamId, version);
  const [request] = await db
    .select()
    .from(table as SQLiteTable)
    .where(where);
  if (!request) return null;
  const applied = { status: "applied", appliedAt: now } as Partial<T["$inferInsert"]>;
  return { request: request as T["$inferSelect"], markApplied: db.update(table).set(applied).where(where) };
}

/** True when the statement (a request's markApplied, run alone or first in a batch) changed exactly one row. */
export const appliedOnce = (result: unknown) => (result as { meta: { changes: number } }).meta.changes === 1;

/**
 * Applies a team's pending request `version` in ONE batch with the writes it makes (`writes` reads the stored request):
 * a second activation finds it applied and writes nothing. True when this call applied it.
 */
async function applyRequestInBatch<T extends RequestTable>(
  db: DrizzleD1Database,
  table: T,
  request: { teamId: string; version: number; now: number },
  writes: (stored: T["$inferSelect"]) => BatchItem<"sqlite">[],
): Promise<boolean> {
  const pending = await pendingRequest(db, table, request.teamId, request.version, request.now);
  if (!pending) return false;
  const [marked] = await batchAll(db, [pending.markApplied, ...writes(pending.request)]);
  return appliedOnce(marked);
}

/**
 * A request table whose body is one JSON text column (a roster, a set of limits): `addRequest` stores a body as the
 * team's next pending version; `applyRequest` applies it in one batch with `writes` (the rows it sets and the caller's
 * audit statement, so the activation is audited once).
 */
export function jsonBodyRequests<T extends RequestTable, B>(
  db: DrizzleD1Database,
  table: T,
  column: keyof T["$inferSelect"] & string,
  writes: (
    body: B,
    request: { teamId: string; version: number; now: number; audit: AuditEntry },
  ) => BatchItem<"sqlite">[],
) {
  return {
    async addRequest(teamId: string, body: B, requestedBy: string, now: number): Promise<number> {
      const row = { [column]: JSON.stringify(body), status: "pending", requestedBy, createdAt: now };
      return insertNextVersion(db, table, teamId, row as Omit<T["$inferInsert"], "teamId" | "version">);
    },
    async applyRequest(teamId: string, version: number, now: number, audit: AuditEntry): Promise<boolean> {
      return applyRequestInBatch(db, table, { teamId, version, now }, (stored) =>
        writes(JSON.parse(stored[column] as string) as B, { teamId, version, now, audit }),
      );
    },
  };
}

/**
 * Makes the pending `version` the team's active one in one batch: the active version is retired only while the target
 * is still pending, so a repeated activation changes nothing. True when this call activated it. `activated` adds
 * columns to set on the activated row (say its activation time).
 */
export async function activatePendingVersion<T extends StatusVersionedTable>(
  db: DrizzleD1Database,
  table: T,
  teamId: string,
  version: number,
  activated: Partial<T["$inferInsert"]> = {},
): Promise<boolean> {
  const targetPending = sql`exists (select 1 from ${table} where ${pendingVersion(table, teamId, version)})`;
  const [, activation] = await db.batch([
    db
      .update(table)
      .set({ status: "retired" } as Partial<T["$inferInsert"]>)
      .where(and(eq(table.teamId, teamId), eq(table.status, "active"), targetPending)),
    db
      .update(table)
      .set({ ...activated, status: "active" })
      .where(pendingVersion(table, teamId, version)),
  ]);
  return activation.meta.changes === 1;
}
