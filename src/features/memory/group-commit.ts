// Group commit of guarded memory writes: per team, writes that arrive during a commit go out together in the next one.

import { contentHash, scopeKey } from "./content";
import { type Defer, syncCards } from "./core";
import { closeIds, NEAR_TOP_K, type Planned, type PlanWrite, planGroup, reinforcedAtBirth } from "./group-plan";
import { newDoc } from "./write-checks";
import { type Pending, persist, type WriteContext, type WriteOutcome } from "./write-context";

/** At most this many writes go out in one group commit (D1's batch and the index upsert stay small). */
export const MAX_GROUP_COMMIT = 32;

type GroupOutcome = WriteOutcome | { failed: unknown };

/**
 * Group commit: a write that arrives while its team's previous commit is in flight waits for it and then goes
 * out with every other write that arrived meanwhile, as one embedding call, one content-hash query, one D1 batch
 * and one index upsert (D1 and the index are single writers: a round trip each per write was the bottleneck at
 * 8 in flight). A write alone is committed at once. The guard has already passed for every write here; each
 * write keeps its own outcome. The request that opens a drain keeps the isolate alive for it (defer).
 */
export function commit(ctx: WriteContext, p: Omit<Pending, "resolve" | "reject">, defer: Defer): Promise<WriteOutcome> {
  return new Promise<WriteOutcome>((resolve, reject) => {
    const team = p.caller.teamId;
    const queue = ctx.waiting.get(team);
    if (queue) {
      queue.push({ ...p, resolve, reject });
      return;
    }
    const first: Pending[] = [{ ...p, resolve, reject }];
    ctx.waiting.set(team, []);
    defer(drain(ctx, team, first));
  });
}

async function drain(ctx: WriteContext, team: string, first: Pending[]) {
  let batch = first;
  while (batch.length) {
    try {
      const outcomes = await commitBatch(ctx, team, batch);
      batch.forEach((p, i) => {
        const o = outcomes[i] as GroupOutcome;
        if ("failed" in o) p.reject(o.failed);
        else p.resolve(o);
      });
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
    batch = (ctx.waiting.get(team) ?? []).splice(0, MAX_GROUP_COMMIT);
  }
  ctx.waiting.delete(team);
}

/**
 * One group commit: every write looked up at once (one content-hash read, one index call, one neighbour read),
 * decided in arrival order as if committed one by one (group-plan.ts), then the new memories persisted together.
 */
async function commitBatch(ctx: WriteContext, teamId: string, batch: Pending[]): Promise<GroupOutcome[]> {
  for (const p of batch) p.mark("commit_wait");
  const { writes, stored, vectors } = await lookUpGroup(ctx, teamId, batch);
  const plan = planGroup(writes, stored, () => ctx.d.newId("mem"));
  await reinforceStored(ctx, teamId, batch, plan);
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
