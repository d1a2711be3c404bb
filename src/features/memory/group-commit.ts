// Commit of guarded memory writes: each request commits its own writes; one team's commits in an isolate take turns.

import { takeTurn } from "./commit-turns";
import { contentHash, scopeKey } from "./content";
import { cardOf, type Defer, metaOf, syncCards } from "./core";
import { closeIds, NEAR_TOP_K, type Planned, type PlanWrite, planGroup, reinforcedAtBirth } from "./group-plan";
import { newDoc } from "./write-checks";
import { type Pending, persist, type WriteContext, type WriteOutcome } from "./write-context";

/** How long a write waits for its team's commit in flight before it goes on anyway (commit-turns.ts says why). */
export const TURN_WAIT_MS = 10_000;

type GroupOutcome = WriteOutcome | { failed: unknown };

/**
 * One write committed by its own request: it waits for its team's commit in flight in this isolate (if any) to end,
 * then looks up, decides and persists on its own, so it sees every memory committed before it (same text, near
 * duplicate, contradiction) exactly as one write at a time. No request runs I/O for another's write: workerd refuses
 * I/O on behalf of a different request, and a commit run by request A for B's write lives and dies with A. The commit
 * is also deferred on the request, so a client that hangs up does not cut it (and its turn) short.
 */
export async function commit(ctx: WriteContext, p: Pending, defer: Defer): Promise<WriteOutcome> {
  const team = p.caller.teamId;
  const release = await takeTurn(ctx.turns, team, TURN_WAIT_MS);
  const committed = commitBatch(ctx, team, [p]).finally(release);
  defer(committed.catch(() => {}));
  const [outcome] = (await committed) as [GroupOutcome];
  if ("failed" in outcome) throw outcome.failed;
  return outcome;
}

/**
 * One commit of a request's writes: every write looked up at once (one content-hash read, one index call, one
 * neighbour read), decided in order as if committed one by one (group-plan.ts), then the new memories persisted
 * together.
 */
async function commitBatch(ctx: WriteContext, teamId: string, batch: Pending[]): Promise<GroupOutcome[]> {
  for (const p of batch) p.mark("commit_wait");
  const { writes, stored, vectors } = await lookUpGroup(ctx, teamId, batch);
  const plan = planGroup(writes, stored, () => ctx.d.newId("mem"));
  await reinforceStored(ctx, teamId, batch, plan);
  await restoreLostVectors(ctx, teamId, batch, writes);
  for (const p of batch) p.mark("near_duplicate_check");
  const docs = newDocsOf(batch, plan, writes, vectors);
  const outcomes: GroupOutcome[] = plan.map((step) =>
    step.kind === "reinforce"
      ? { id: step.of, tier: step.tier, status: "reinforced" }
      : { id: step.id, tier: "hot", status: "created", ...(step.supersedes ? { supersedes: step.supersedes } : {}) },
  );
  try {
    if (docs.length)
      await persist(ctx, teamId, docs, (phase) => {
        for (const p of batch) p.mark(phase);
      });
  } catch (e) {
    // persist removed every new row again: the writes that created one (or reinforced one created in this group)
    // fail, the writes that reinforced a stored memory stand
    const lost = new Set(docs.map((x) => x.doc.id));
    outcomes.forEach((o, i) => {
      if ("id" in o && lost.has(o.id)) outcomes[i] = { failed: e };
    });
  }
  return outcomes;
}

/** Embeddings and content hashes of a group, then its duplicate lookups: D1 by hash and the index side by side. */
async function lookUpGroup({ d }: WriteContext, teamId: string, batch: Pending[]) {
  const [hashes, vectors] = await Promise.all([
    Promise.all(batch.map((p) => contentHash(p.w.namespace, p.w.class, p.w.text))),
    d.embedder.embed(batch.map((p) => p.w.text)),
  ]);
  if (vectors.length !== batch.length) throw new Error("embedder returned no vector");
  for (const p of batch) p.mark("embed");
  // a write with an explicit `supersedes` is not checked for duplicates
  const checked = batch.flatMap((p, i) => (p.supersedes ? [] : [i]));
  const [existing, answers] = await Promise.all([
    d.store.findByContentHashes(teamId, [...new Set(checked.map((i) => hashes[i] as string))]),
    d.index.queryMany(
      teamId,
      checked.map((i) => ({
        vector: vectors[i] as Float32Array,
        topK: NEAR_TOP_K,
        filter: { scope: scopeKey((batch[i] as Pending).ns.scope) },
      })),
    ),
  ]);
  const matches = new Map(checked.map((i, k) => [i, answers[k] ?? []]));
  const writes: PlanWrite[] = batch.map((p, i) => {
    const hash = hashes[i] as string;
    const same = p.supersedes ? undefined : existing.get(hash);
    return {
      namespace: p.w.namespace,
      cls: p.w.class,
      text: p.w.text,
      scope: scopeKey(p.ns.scope),
      hash,
      vector: vectors[i] as Float32Array,
      supersedes: p.supersedes,
      exact: same ? { id: same.id, tier: same.tier } : undefined,
      matches: matches.get(i) ?? [],
    };
  });
  const stored = new Map((await d.store.getDocs(teamId, closeIds(writes))).map((x) => [x.id, x]));
  return { writes, stored, vectors };
}

/**
 * An exact duplicate whose stored memory the index does not hold: persist writes a memory's row and its vector in two
 * calls, so a kill between them leaves the row alone, and the client's retry of that write lands here and answers the
 * stored id. The vector is put back (the same text embeds the same), so that id is found by queries again.
 */
async function restoreLostVectors({ d }: WriteContext, teamId: string, batch: Pending[], writes: PlanWrite[]) {
  const lost = writes.flatMap((w, i) => {
    const id = w.exact?.id;
    return id !== undefined && !w.matches.some((m) => m.id === id) ? [{ i, id }] : [];
  });
  if (!lost.length) return;
  const docs = await d.store.getHotDocsForActor(
    teamId,
    lost.map((x) => x.id),
    "team",
    0,
  );
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const vectors = lost.flatMap(({ i, id }) => {
    const doc = byId.get(id);
    const p = batch[i] as Pending;
    if (!doc) return [];
    const values = (writes[i] as PlanWrite).vector as Float32Array;
    return [{ id, values, metadata: metaOf(doc, p.ns), card: cardOf(doc, doc.actorImportance) }];
  });
  if (vectors.length) await d.index.upsert(teamId, vectors);
}

/** A reinforcement of an already stored memory is its own write: it stands whatever happens to the new ones. */
async function reinforceStored({ d }: WriteContext, teamId: string, batch: Pending[], plan: Planned[]) {
  const ids = await Promise.all(
    plan.map(async (step, i) => {
      if (step.kind !== "reinforce" || step.inGroup) return [];
      await d.store.reinforce(teamId, step.of, (batch[i] as Pending).now);
      return [step.of];
    }),
  );
  const reinforced = [...new Set(ids.flat())];
  if (reinforced.length) await syncCards(d, teamId, reinforced);
}

/** The memories a plan creates; one reinforced by later writes of the group is born with those reinforcements. */
function newDocsOf(batch: Pending[], plan: Planned[], writes: PlanWrite[], vectors: Float32Array[]) {
  const later = new Map<string, { times: number; lastAt: number }>();
  plan.forEach((step, i) => {
    if (step.kind !== "reinforce" || !step.inGroup) return;
    const r = later.get(step.of) ?? { times: 0, lastAt: 0 };
    later.set(step.of, { times: r.times + 1, lastAt: (batch[i] as Pending).now });
  });
  return plan.flatMap((step, i) => {
    if (step.kind !== "create") return [];
    const p = batch[i] as Pending;
    const doc = newDoc(step.id, p.caller, p.w, p.now, (writes[i] as PlanWrite).hash, step.supersedes);
    const r = later.get(step.id);
    return [
      {
        doc: r ? { ...doc, ...reinforcedAtBirth(r.times, r.lastAt, p.now) } : doc,
        ns: p.ns,
        vector: vectors[i] as Float32Array,
      },
    ];
  });
}
