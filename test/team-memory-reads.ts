// Tests' reads of a team's memory through the app's own ports (no SQL): the team object's MemoryStore operations and
// the migration target's digest (src/adapters/do/team-memory-store.ts behind both).
import type { Deps } from "../src/deps";
import type { MemDoc } from "../src/ports/memory-store";

/** an actor key no use event writes: its importance falls back to the doc's team importance row */
const NO_ACTOR = "actor:none";

export function teamMemoryReads(deps: Pick<Deps, "memoryStore" | "memoryMigrationTarget">) {
  const store = deps.memoryStore;

  /** the number of memories in the team's object (every tier and class) */
  const teamDocCount = async (teamId: string) => (await deps.memoryMigrationTarget.digest(teamId)).count;

  /** the team's memories of these ids, in id order */
  const teamDocs = async (teamId: string, ids: string[]): Promise<MemDoc[]> =>
    (await store.getDocs(teamId, ids)).sort((a, b) => a.id.localeCompare(b.id));

  /**
   * The raw score of a hot doc's team importance row, or null when it has none: the row must have changed at or after
   * `since` (importanceChangedSince lists only docs with a team row), and for an actor with no row of its own the
   * actor importance is the team row's score.
   */
  async function teamImportance(teamId: string, docId: string, since: number): Promise<number | null> {
    const changed = await store.importanceChangedSince(teamId, since, "", 10_000);
    if (!changed.includes(docId)) return null;
    const [doc] = await store.getHotDocsForActor(teamId, [docId], NO_ACTOR, since);
    return doc?.actorImportance ?? null;
  }

  return { teamDocCount, teamDocs, teamImportance };
}
