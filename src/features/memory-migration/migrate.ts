// The copy job's use-case: one page of a team's D1 memory rows into its team object; at the end, verify and switch.
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { MemoryMigrationSource, MemoryMigrationTarget } from "../../ports/memory-migration";

export type MigrateDeps = { source: MemoryMigrationSource; target: MemoryMigrationTarget; now: () => number };

/** the route's answer: docs copied so far, docs in D1, and once done the verified hash and the switch time */
export type MigrateProgress = {
  copied: number;
  total: number;
  done: boolean;
  verified_hash?: string;
  switched_at?: number;
};

/**
 * Copies the next `batch` docs after the cursor (insert-or-ignore: a repeated or interrupted page changes nothing),
 * then advances the cursor. A call that finds no doc after the cursor verifies both sides (count and content hash)
 * and switches the team; a mismatch (rows written behind the cursor during the copy) restarts the cursor and is a
 * conflict, so the next run copies what was missed. A switched team is a no-op.
 */
export async function migrateNextPage(
  d: MigrateDeps,
  teamId: string,
  batch: number,
): Promise<Result<MigrateProgress, AppError>> {
  const state = await d.source.state(teamId);
  if (state.switchedAt !== null)
    return ok({
      copied: state.copied,
      total: await d.source.count(teamId),
      done: true,
      verified_hash: state.verifiedHash ?? undefined,
      switched_at: state.switchedAt,
    });
  const page = await d.source.page(teamId, state.cursor, batch);
  const last = page.docs.at(-1);
  if (last) {
    const inserted = await d.target.importRows(teamId, page);
    await d.source.advance(teamId, last.id, inserted);
    return ok({ copied: state.copied + inserted, total: await d.source.count(teamId), done: false });
  }
  return verifyAndSwitch(d, teamId, state.copied);
}

async function verifyAndSwitch(
  d: MigrateDeps,
  teamId: string,
  copied: number,
): Promise<Result<MigrateProgress, AppError>> {
  const [inD1, inObject] = await Promise.all([d.source.digest(teamId), d.target.digest(teamId)]);
  if (inD1.count !== inObject.count || inD1.hash !== inObject.hash) {
    await d.source.restart(teamId);
    return err({
      code: "conflict",
      message: `memory copy does not verify: D1 holds ${inD1.count} memories, the team object ${inObject.count} (or their content hashes differ); the cursor was reset, run the copy again`,
    });
  }
  const now = d.now();
  await d.source.markSwitched(teamId, inD1.hash, now);
  return ok({ copied, total: inD1.count, done: true, verified_hash: inD1.hash, switched_at: now });
}
