// Memory write use-cases: one guarded write, many at once (all or nothing), rigid import; each returns a Result.

import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { MemDoc } from "../../ports/memory-store";
import { contentHash, DEFAULT_SUMMARY_MAX_CHARS, scopeKey } from "./content";
import {
  cardOf,
  type Defer,
  invalid,
  type MemoryServiceDeps,
  metaOf,
  resolveAll,
  resolveNamespace,
  stopwatch,
  syncCards,
  type Timing,
} from "./core";
import { closeIds, NEAR_TOP_K, type Planned, type PlanWrite, planGroup, reinforcedAtBirth } from "./group-plan";
import { scanFields } from "./guard/guard";
import type { Caller, ParsedNamespace } from "./namespaces";
import type { Tier } from "./ranking";
import { guardFields, newDoc, refusal, sizeOf as sizeOfWrite, type WriteInput } from "./write-checks";

export type { WriteInput } from "./write-checks";

/** refusal's arguments after the deps and the summary limit */
type RefusalArgs = Parameters<typeof refusal> extends [unknown, unknown, ...infer Rest] ? Rest : never;

export type WriteOutcome = { id: string; tier: Tier; status: "created" | "reinforced"; supersedes?: string };
export type RigidImport = {
  namespace: string;
  kind: "charter" | "allowlist";
  entries: { text: string; tags?: string[]; metadata?: Record<string, unknown> }[];
  replace?: boolean;
};
/** how a write is reported: `announce: false` when the caller reports refusals itself (the learning consumer) */
export type WriteOptions = { timing?: Timing; announce?: boolean };

/** At most this many writes go out in one group commit (D1's batch and the index upsert stay small). */
export const MAX_GROUP_COMMIT = 32;

export function createMemoryWrites(d: MemoryServiceDeps) {
  const maxChars = d.summaryMaxChars ?? DEFAULT_SUMMARY_MAX_CHARS;

  const refuse = (...args: RefusalArgs) => refusal(d, maxChars, ...args);
  const sizeOf = (w: WriteInput) => sizeOfWrite(w, maxChars);

  /** D1 first, then the index; if the index fails the rows are removed again so nothing half-stored remains. */
  async function persist(
    teamId: string,
    docs: { doc: MemDoc; ns: ParsedNamespace; vector: Float32Array }[],
    mark: (phase: string) => void = () => {},
  ) {
    await d.store.insertDocs(docs.map((x) => x.doc));
    mark("d1_insert");
    try {
      await d.index.upsert(
        teamId,
        docs.map((x) => ({
          id: x.doc.id,
          values: x.vector,
          metadata: metaOf(x.doc, x.ns),
          card: cardOf(x.doc, x.doc.importance),
        })),
      );
      mark("index_upsert");
    } catch (e) {
      await d.store
        .deleteDocs(
          teamId,
          docs.map((x) => x.doc.id),
        )
        .catch(() => {});
      throw e;
    }
  }

  /** The guard and size checks of one write: the refusal as an error, or null when the write may go on. */
  async function checkOne(
    caller: Caller,
    w: WriteInput,
    ns: ParsedNamespace,
    now: number,
    defer: Defer,
    announce: boolean,
  ) {
    // sizes first: the guard never scans text that will be refused anyway (its cost grows with the text)
    const size = sizeOf(w);
    if (size.length) return refuse(caller, now, defer, "memory.write", "rejected", size, { class: w.class, announce });
    const verdict = await scanFields(guardFields(w));
    const scope = verdict.ok || !verdict.paths.includes("namespace") ? ns.scope : undefined;
    if (!verdict.ok) {
      return refuse(caller, now, defer, "memory.write", verdict.code, verdict.ruleIds, {
        scope,
        class: w.class,
        announce,
      });
    }
    return null;
  }

  async function write(
    caller: Caller,
    w: WriteInput,
    now: number,
    defer: Defer,
    opts: WriteOptions = {},
  ): Promise<Result<WriteOutcome, AppError>> {
    const mark = stopwatch(opts.timing);
    const ns = resolveNamespace(caller, w.namespace, "write", "namespace");
    if (!ns.ok) return ns;
    const refused = await checkOne(caller, w, ns.value, now, defer, opts.announce ?? true);
    mark("guard");
    if (refused) return err(refused);

    let supersedes: string | null = null;
    if (w.supersedes) {
      const [old] = await d.store.getDocs(caller.teamId, [w.supersedes]);
      if (!old || old.namespace !== w.namespace)
        return err(invalid("supersedes", "supersedes must name a memory in the same namespace"));
      supersedes = old.id;
    }

    const committed = commit({ caller, w, ns: ns.value, now, supersedes, mark }, defer);
    return ok(await committed);
  }

  /** A guarded write waiting for its team's next group commit. */
  type Pending = {
    caller: Caller;
    w: WriteInput;
    ns: ParsedNamespace;
    now: number;
    supersedes: string | null;
    mark: (phase: string) => void;
    resolve: (o: WriteOutcome) => void;
    reject: (e: unknown) => void;
  };
  /** per team with a commit in flight: the writes waiting for the next one (no entry when none is in flight) */
  const waiting = new Map<string, Pending[]>();

  /**
   * Group commit: a write that arrives while its team's previous commit is in flight waits for it and then goes
   * out with every other write that arrived meanwhile, as one embedding call, one content-hash query, one D1 batch
   * and one index upsert (D1 and the index are single writers: a round trip each per write was the bottleneck at
   * 8 in flight). A write alone is committed at once. The guard has already passed for every write here; each
   * write keeps its own outcome. The request that opens a drain keeps the isolate alive for it (defer).
   */
  function commit(p: Omit<Pending, "resolve" | "reject">, defer: Defer): Promise<WriteOutcome> {
    return new Promise<WriteOutcome>((resolve, reject) => {
      const team = p.caller.teamId;
      const queue = waiting.get(team);
      if (queue) {
        queue.push({ ...p, resolve, reject });
        return;
      }
      const first: Pending[] = [{ ...p, resolve, reject }];
      waiting.set(team, []);
      defer(drain(team, first));
    });
  }

  async function drain(team: string, first: Pending[]) {
    let batch = first;
    while (batch.length) {
      try {
        const outcomes = await commitBatch(team, batch);
        batch.forEach((p, i) => {
          const o = outcomes[i] as WriteOutcome | { failed: unknown };
          if ("failed" in o) p.reject(o.failed);
          else p.resolve(o);
        });
      } catch (e) {
        for (const p of batch) p.reject(e);
      }
      batch = (waiting.get(team) ?? []).splice(0, MAX_GROUP_COMMIT);
    }
    waiting.delete(team);
  }

  type GroupOutcome = WriteOutcome | { failed: unknown };

  /**
   * One group commit: every write looked up at once (one content-hash read, one index call, one neighbour read),
   * decided in arrival order as if committed one by one (group-plan.ts), then the new memories persisted together.
   */
  async function commitBatch(teamId: string, batch: Pending[]): Promise<GroupOutcome[]> {
    for (const p of batch) p.mark("commit_wait");
    const { writes, stored, vectors } = await lookUpGroup(teamId, batch);
    const plan = planGroup(writes, stored, () => d.newId("mem"));
    await reinforceStored(teamId, batch, plan);
    for (const p of batch) p.mark("near_duplicate_check");
    const docs = newDocsOf(batch, plan, writes, vectors);
    const outcomes: GroupOutcome[] = plan.map((step) =>
      step.kind === "reinforce"
        ? { id: step.of, tier: step.tier, status: "reinforced" }
        : { id: step.id, tier: "hot", status: "created", ...(step.supersedes ? { supersedes: step.supersedes } : {}) },
    );
    try {
      if (docs.length)
        await persist(teamId, docs, (phase) => {
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
  async function lookUpGroup(teamId: string, batch: Pending[]) {
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
  async function reinforceStored(teamId: string, batch: Pending[], plan: Planned[]) {
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

  /** Guards every item in one pass (one secretlint run per variant kind) and sizes each: the refusal, or null. */
  async function checkMany(caller: Caller, items: WriteInput[], now: number, defer: Defer, source: string) {
    const union = (rs: { ruleIds: string[] }[]) => [...new Set(rs.flatMap((r) => r.ruleIds))].sort();
    // sizes first: the guard never scans text that will be refused anyway (its cost grows with the text)
    const sized = items.flatMap((w, i) => {
      const ruleIds = sizeOf(w);
      return ruleIds.length ? [{ i, ruleIds }] : [];
    });
    if (sized.length) {
      return refuse(caller, now, defer, source, "rejected", union(sized), { items: sized.map((r) => r.i) });
    }
    const refused: { i: number; code: "redaction_required" | "pii_detected"; ruleIds: string[] }[] = [];
    const verdict = await scanFields(items.flatMap((w, i) => guardFields(w, `items.${i}.`)));
    if (!verdict.ok) {
      const perItem = new Map<number, typeof verdict.hits>();
      for (const hit of verdict.hits) {
        const i = Number(/^items\.(\d+)\./.exec(hit.path)?.[1] ?? -1);
        perItem.set(i, [...(perItem.get(i) ?? []), hit]);
      }
      for (const [i, hits] of perItem) {
        const ids = new Set(hits.map((h) => h.ruleId));
        for (const h of hits) if (h.via !== "raw") ids.add(`evasion.${h.via}`);
        const code = hits.some((h) => h.family !== "pii") ? "redaction_required" : "pii_detected";
        refused.push({ i, code, ruleIds: [...ids].sort() });
      }
    }
    if (refused.length) {
      const code = refused.some((r) => r.code === "redaction_required") ? "redaction_required" : "pii_detected";
      return refuse(caller, now, defer, source, code, union(refused), { items: refused.map((r) => r.i) });
    }
    return null;
  }

  /** Many writes at once (imports, seeding): all guarded first, all-or-nothing; duplicates only by exact content. */
  async function writeMany(
    caller: Caller,
    items: WriteInput[],
    now: number,
    defer: Defer,
    source = "memory.bulk",
  ): Promise<Result<WriteOutcome[], AppError>> {
    const parsed = resolveAll(
      caller,
      items.map((w) => w.namespace),
      "write",
      (i) => `items.${i}.namespace`,
    );
    if (!parsed.ok) return parsed;
    const refused = await checkMany(caller, items, now, defer, source);
    if (refused) return err(refused);
    const hashes = await Promise.all(items.map((w) => contentHash(w.namespace, w.class, w.text)));
    const results: WriteOutcome[] = new Array(items.length);
    const fresh: number[] = [];
    const seen = new Map<string, number>();
    const existing = await d.store.findByContentHashes(caller.teamId, [...new Set(hashes)]);
    for (let i = 0; i < items.length; i++) {
      const h = hashes[i] as string;
      if (seen.has(h)) continue;
      seen.set(h, i);
      const same = existing.get(h);
      if (same) {
        await d.store.reinforce(caller.teamId, same.id, now);
        results[i] = { id: same.id, tier: same.tier, status: "reinforced" };
      } else fresh.push(i);
    }
    await syncCards(
      d,
      caller.teamId,
      results.filter((r) => r?.status === "reinforced").map((r) => r.id),
    );
    const vectors = await d.embedder.embed(fresh.map((i) => (items[i] as WriteInput).text));
    const docs = fresh.map((i, k) => ({
      doc: newDoc(d.newId("mem"), caller, items[i] as WriteInput, now, hashes[i] as string, null),
      ns: parsed.value[i] as ParsedNamespace,
      vector: vectors[k] as Float32Array,
    }));
    if (docs.length) await persist(caller.teamId, docs);
    fresh.forEach((i, k) => {
      results[i] = { id: (docs[k] as { doc: MemDoc }).doc.id, tier: "hot", status: "created" };
    });
    for (let i = 0; i < items.length; i++) {
      if (!results[i]) {
        const first = results[seen.get(hashes[i] as string) as number] as WriteOutcome;
        results[i] = { id: first.id, tier: first.tier, status: "reinforced" };
      }
    }
    return ok(results);
  }

  /** Rigid memory (charter, allowlist): import-only, pinned, never derived from episodes. */
  async function importRigid(
    caller: Caller,
    body: RigidImport,
    now: number,
    defer: Defer,
  ): Promise<Result<{ imported: number; ids: string[]; archived: string[] }, AppError>> {
    const items: WriteInput[] = body.entries.map((e) => ({
      namespace: body.namespace,
      class: "rigid",
      text: e.text,
      tags: e.tags,
      metadata: { ...(e.metadata ?? {}), rigid_kind: body.kind },
      pinned: true,
    }));
    const ns = resolveNamespace(caller, body.namespace, "write", "namespace");
    if (!ns.ok) return ns;
    let archived: string[] = [];
    if (body.replace) {
      // sizes and guard before archiving anything: a refused import changes nothing
      for (let i = 0; i < items.length; i++) {
        const size = sizeOf(items[i] as WriteInput);
        if (size.length) return err(refuse(caller, now, defer, "memory.import", "rejected", size, { items: [i] }));
        const v = await scanFields(guardFields(items[i] as WriteInput, `entries.${i}.`));
        if (!v.ok) return err(refuse(caller, now, defer, "memory.import", v.code, v.ruleIds, { items: [i] }));
      }
      archived = await d.store.archiveRigid(caller.teamId, body.namespace, body.kind, now);
      await d.index.delete(caller.teamId, archived);
    }
    const results = await writeMany(caller, items, now, defer, "memory.import");
    if (!results.ok) return results;
    return ok({ imported: results.value.length, ids: results.value.map((r) => r.id), archived });
  }

  return { write, writeMany, importRigid };
}
