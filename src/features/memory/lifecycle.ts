// Memory lifecycle use-cases: validated use (importance boosts), tier moves that keep the index in step, reindexing.

import type { AppError } from "../../errors";
import { toHex } from "../../lib/digest";
import { err, ok, type Result } from "../../lib/result";
import type { MemDoc } from "../../ports/memory-store";
import { type MemoryServiceDeps, metaOf, syncCards } from "./core";
import { scanFields } from "./guard/guard";
import { actorKeyOf, type Caller, fence, parseNamespace } from "./namespaces";
import type { Tier } from "./ranking";

export type UseOutcome = { used: string[]; boosted: string[]; not_found: string[]; actor_key: string };

async function useEventId(docId: string, actorKey: string, runId: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${docId}\n${actorKey}\n${runId}`));
  return `use_${toHex(new Uint8Array(digest).slice(0, 16))}`;
}

/** Validated use: +8 importance for the caller's actor key per doc (once per run when run_id is given). */
async function use(
  d: MemoryServiceDeps,
  caller: Caller,
  ids: string[],
  runId: string | undefined,
  now: number,
): Promise<Result<UseOutcome, AppError>> {
  if (runId) {
    // the run id is stored with each use event: the guard reads it like any other stored value
    const v = await scanFields([{ path: "run_id", value: runId }]);
    if (!v.ok) return err({ code: v.code, ruleIds: v.ruleIds });
  }
  const unique = [...new Set(ids)];
  const docs = await d.store.getDocs(caller.teamId, unique);
  const visible = docs.filter((x) => {
    const p = parseNamespace(x.namespace);
    return p.ok && fence(caller, p.value, "read").ok && x.tier !== "archived";
  });
  const actorKey = actorKeyOf(caller);
  const visibleIds = new Set(visible.map((x) => x.id));
  const uses = await Promise.all(
    visible.map(async (x) => ({
      docId: x.id,
      actorKey,
      runId: runId ?? null,
      eventId: runId ? await useEventId(x.id, actorKey, runId) : d.newId("use"),
    })),
  );
  const boosted = await d.store.recordUses(caller.teamId, uses, now);
  await syncCards(d, caller.teamId, boosted);

  // a used memory that had cooled down comes back into the index
  const cooled = visible.filter((x) => boosted.includes(x.id) && (x.tier === "warm" || x.tier === "cold"));
  if (cooled.length) await moveTier(d, caller.teamId, cooled, "hot", now);
  return ok({
    used: unique.filter((id) => visibleIds.has(id)),
    boosted,
    not_found: unique.filter((id) => !visibleIds.has(id)),
    actor_key: actorKey,
  });
}

/** Embeds docs and upserts them into the index (only hot docs are indexed). */
async function index(d: MemoryServiceDeps, teamId: string, docs: MemDoc[]) {
  const vectors = await d.embedder.embed(docs.map((x) => x.text));
  await d.index.upsert(
    teamId,
    docs.flatMap((x, i) => {
      const p = parseNamespace(x.namespace);
      return p.ok ? [{ id: x.id, values: vectors[i] as Float32Array, metadata: metaOf(x, p.value) }] : [];
    }),
  );
}

/** Moves docs between tiers keeping the index in step: only hot docs are indexed. */
async function moveTier(d: MemoryServiceDeps, teamId: string, docs: MemDoc[], tier: Tier, now: number) {
  if (!docs.length) return;
  const ids = docs.map((x) => x.id);
  if (tier === "hot") {
    await index(d, teamId, docs);
    await d.store.setTier(teamId, ids, tier, now);
    await syncCards(d, teamId, ids);
  } else {
    // D1 first: were the index delete to fail, the memory stays findable (a stale entry) rather than lost
    await d.store.setTier(teamId, ids, tier, now);
    await d.index.delete(
      teamId,
      docs.filter((x) => x.tier === "hot").map((x) => x.id),
    );
  }
}

/** Re-embeds and re-indexes a team's hot memories (after switching embedders, or to rebuild a lost index). */
async function reindex(d: MemoryServiceDeps, teamId: string, opts: { batch?: number } = {}) {
  const batch = opts.batch ?? 100;
  let after = "";
  let count = 0;
  for (;;) {
    const docs = await d.store.hotDocsPage(teamId, after, batch);
    if (!docs.length) break;
    await index(d, teamId, docs);
    await syncCards(
      d,
      teamId,
      docs.map((x) => x.id),
    );
    count += docs.length;
    after = (docs[docs.length - 1] as MemDoc).id;
  }
  return { reindexed: count };
}

/** Refreshes the cards of a team's hot memories whose team importance changed since `since` (after a decay). */
async function refreshCardsSince(d: MemoryServiceDeps, teamId: string, since: number, opts: { page?: number } = {}) {
  let after = "";
  let refreshed = 0;
  for (;;) {
    const ids = await d.store.importanceChangedSince(teamId, since, after, opts.page ?? 500);
    if (!ids.length) break;
    await syncCards(d, teamId, ids);
    refreshed += ids.length;
    after = ids[ids.length - 1] as string;
  }
  return { refreshed };
}

/** The lifecycle use-cases over one set of deps. */
export function createMemoryLifecycle(d: MemoryServiceDeps) {
  return {
    use: (caller: Caller, ids: string[], runId: string | undefined, now: number) => use(d, caller, ids, runId, now),
    moveTier: (teamId: string, docs: MemDoc[], tier: Tier, now: number) => moveTier(d, teamId, docs, tier, now),
    reindex: (teamId: string, opts?: { batch?: number }) => reindex(d, teamId, opts),
    refreshCardsSince: (teamId: string, since: number, opts?: { page?: number }) =>
      refreshCardsSince(d, teamId, since, opts),
  };
}
