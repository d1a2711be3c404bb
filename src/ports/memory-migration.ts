// Port: copying a team's memory rows from D1's `mem_*` tables into its team object, and the copy's progress (issue 27).
import type { MemDoc } from "./memory-store";

/** a mem_actor_importance row as both homes store it */
export type ImportanceRow = {
  docId: string;
  actorKey: string;
  rawScore: number;
  lastUpdateAt: number;
  lastUsedAt: number | null;
  use7d: number;
  use30d: number;
};

/** a mem_use_event row as both homes store it */
export type UseEventRow = {
  id: string;
  docId: string;
  actorKey: string;
  runId: string | null;
  ts: number;
  weight: number;
};

/** one page of a team's docs by id, with every importance row and use event of those docs */
export type MemoryRowsPage = { docs: MemDoc[]; importance: ImportanceRow[]; uses: UseEventRow[] };

/** the rows' count and SHA-256 (src/lib/memory-rows-hash.ts) */
export type MemoryRowsDigest = { count: number; hash: string };

/** the copy's progress; `switchedAt` set: the team's memory is read and written in its object only */
export type MigrationState = { cursor: string; copied: number; verifiedHash: string | null; switchedAt: number | null };

/** D1's side: the source rows and the progress row (memory_migration) */
export interface MemoryMigrationSource {
  state(teamId: string): Promise<MigrationState>;
  /** the team's docs with id > afterId, in id order, at most `limit`, with their importance rows and use events */
  page(teamId: string, afterId: string, limit: number): Promise<MemoryRowsPage>;
  /** the team's docs in D1 */
  count(teamId: string): Promise<number>;
  digest(teamId: string): Promise<MemoryRowsDigest>;
  /** records a copied page (the cursor only moves forward; a repeated page leaves it where it is) */
  advance(teamId: string, cursor: string, copied: number): Promise<void>;
  /** sets switched_at and lists the team in memory_team (the daily sweep walks it) */
  markSwitched(teamId: string, verifiedHash: string, now: number): Promise<void>;
  /** back to the first page, keeping what was copied (a verification that failed copies again) */
  restart(teamId: string): Promise<void>;
}

/** the team object's side */
export interface MemoryMigrationTarget {
  /** insert-or-ignore of every row: a repeated page changes nothing; the number of docs new to the object */
  importRows(teamId: string, page: MemoryRowsPage): Promise<number>;
  digest(teamId: string): Promise<MemoryRowsDigest>;
}
