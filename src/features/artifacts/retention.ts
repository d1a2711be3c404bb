// The artifact retention sweep: expired rows go first, then their objects; objects left without a row are orphans.

import type { ArtifactObjects } from "../../ports/artifact-objects";
import { ARTIFACT_KEY_PREFIX } from "./domain";
import type { ArtifactStore } from "./store/artifact-store-port";

export type ArtifactRetentionNeeds = { artifactStore: ArtifactStore; artifactObjects: ArtifactObjects };
export type ArtifactSweepReport = { expired: number; orphans: number };

/** expired rows handled per round (a D1 page and one R2 delete call) */
export const SWEEP_BATCH = 500;
/** an object younger than this may be an upload whose row is still on its way: never an orphan yet */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** rounds per sweep, so one run of the daily cron stays bounded (the rest waits for the next day) */
const MAX_ROUNDS = 20;

/**
 * Deletes expired artifacts, row before object: a sweep cut off between the two leaves an object without a row, never
 * a row without its object (a reader never meets a dangling row). Such objects — and any an interrupted upload left —
 * are removed by the orphan pass, here or in the next sweep.
 */
export async function sweepArtifacts(
  deps: ArtifactRetentionNeeds,
  now: number,
  batch = SWEEP_BATCH,
): Promise<ArtifactSweepReport> {
  let expired = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const rows = await deps.artifactStore.expired(now, batch);
    if (rows.length === 0) break;
    await deps.artifactStore.deleteRows(rows.map((r) => r.artifactId));
    await deps.artifactObjects.delete(rows.map((r) => r.key));
    expired += rows.length;
    if (rows.length < batch) break;
  }
  return { expired, orphans: await sweepOrphans(deps, now, batch) };
}

/** Objects under the artifact prefix, older than the grace period, with no row: deleted. */
export async function sweepOrphans(deps: ArtifactRetentionNeeds, now: number, batch = SWEEP_BATCH): Promise<number> {
  let orphans = 0;
  let cursor: string | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const page = await deps.artifactObjects.list(ARTIFACT_KEY_PREFIX, cursor, batch);
    const old = page.objects.filter((o) => o.uploadedAt <= now - ORPHAN_GRACE_MS).map((o) => o.key);
    if (old.length > 0) {
      const kept = await deps.artifactStore.keysWithRows(old);
      const gone = old.filter((k) => !kept.has(k));
      if (gone.length > 0) await deps.artifactObjects.delete(gone);
      orphans += gone.length;
    }
    cursor = page.cursor;
    if (cursor === undefined) break;
  }
  return orphans;
}
