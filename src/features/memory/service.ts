// Memory use-cases: guarded writes (single, bulk, rigid import), ranked queries, validated use, tier moves for the sweep.
import type { Principal } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import type { Embedder } from "../../ports/embedder";
import type { EventBus } from "../../ports/event-bus";
import type { MemDoc, MemDocForActor, MemoryStore } from "../../ports/memory-store";
import { MAX_TOP_K, type VectorIndex } from "../../ports/vector-index";
import {
  classifyWrite,
  contentHash,
  DEFAULT_SUMMARY_MAX_CHARS,
  METADATA_MAX_CHARS,
  type Neighbour,
  scopeKey,
  sizeProblems,
} from "./content";
import { type GuardField, metadataFields, scanFields } from "./guard/guard";
import { actorKeyOf, fence, type ParsedNamespace, parseNamespace, withinNamespace } from "./namespaces";
import { BASE_IMPORTANCE, expiresAtFor, type MemoryClass, rankMemories, type Tier } from "./ranking";

export type MemoryService = ReturnType<typeof createMemoryService>;
export type Defer = (work: Promise<unknown>) => void;

export type MemoryServiceDeps = {
  store: MemoryStore;
  index: VectorIndex;
  embedder: Embedder;
  events: EventBus;
  newId: (prefix: string) => string;
  summaryMaxChars?: number;
  /** rank from the local index's cards when it keeps them (default); false always reads D1 */
  useCards?: boolean;
};

export type WriteInput = {
  namespace: string;
  class: MemoryClass;
  text: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  pinned?: boolean;
  supersedes?: string;
};

export type QueryInput = { namespaces: string[]; text: string; top_k?: number; classes?: MemoryClass[] };

export type QueryResult = {
  id: string;
  namespace: string;
  class: MemoryClass;
  text: string;
  tags: string[];
  pinned: boolean;
  supersedes: string | null;
  created_at: number;
  score: number;
  scores: { similarity: number; importance: number; recency: number };
};

/** per-phase durations in ms, for the Server-Timing header */
export type Timing = Record<string, number>;
function stopwatch(timing?: Timing) {
  let last = performance.now();
  return (phase: string) => {
    if (!timing) return;
    const t = performance.now();
    timing[phase] = (timing[phase] ?? 0) + (t - last);
    last = t;
  };
}

/** how many nearest neighbours the index returns before importance and recency re-rank them */
const CANDIDATES = MAX_TOP_K;
const round = (x: number) => Math.round(x * 1e6) / 1e6;

const forbidden = (message: string) => new AppFailure({ code: "forbidden", message });
const invalid = (path: string, message: string) =>
  new AppFailure({ code: "validation_failed", issues: [{ path, message }] });

function metaOf(doc: Pick<MemDoc, "namespace" | "cls">, ns: ParsedNamespace) {
  return { scope: scopeKey(ns.scope), class: doc.cls };
}

export function createMemoryService(d: MemoryServiceDeps) {
  const maxChars = d.summaryMaxChars ?? DEFAULT_SUMMARY_MAX_CHARS;
  const cards = d.useCards ?? true;

  function resolve(principal: Principal, namespace: string, mode: "read" | "write", path: string): ParsedNamespace {
    const parsed = parseNamespace(namespace);
    if (!parsed.ok) throw invalid(path, parsed.error);
    const allowed = fence(principal, parsed.value, mode);
    if (!allowed.ok) throw forbidden(allowed.error);
    return parsed.value;
  }

  /** 422 + a memory_store_failed event (rule ids only) + a log line without values. */
  function refuse(
    principal: Principal,
    now: number,
    defer: Defer,
    source: string,
    code: "redaction_required" | "pii_detected" | "rejected",
    ruleIds: string[],
    context: { scope?: string; class?: string; items?: number[]; announce?: boolean },
  ): never {
    const event = {
      event_id: d.newId("evt"),
      type: "memory_store_failed" as const,
      team_id: principal.teamId,
      run_id: principal.runId ?? null,
      occurred_at: now,
      source,
      code,
      rule_ids: ruleIds,
      ...(context.scope ? { scope: context.scope } : {}),
      ...(context.class ? { class: context.class } : {}),
      ...(context.items ? { items: context.items } : {}),
    };
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "memory write refused",
        team_id: principal.teamId,
        source,
        code,
        rule_ids: ruleIds,
      }),
    );
    // a caller that reports refusals itself (the learning consumer's task.memory_store_failed) asks for silence
    if (context.announce !== false) {
      defer(d.events.publish([event]).catch((e) => console.error("memory_store_failed publish failed", String(e))));
    }
    if (code === "rejected") {
      throw new AppFailure({
        code,
        message: ruleIds.includes("size.raw_log")
          ? "store a summary and stable identifiers, not raw logs"
          : `summary exceeds ${maxChars} characters or metadata exceeds ${METADATA_MAX_CHARS}`,
        ruleIds,
      });
    }
    throw new AppFailure({ code, ruleIds });
  }

  function guardFields(w: Pick<WriteInput, "namespace" | "text" | "tags" | "metadata">, prefix = ""): GuardField[] {
    return [
      { path: `${prefix}namespace`, value: w.namespace },
      { path: `${prefix}text`, value: w.text },
      ...(w.tags ?? []).map((t, i) => ({ path: `${prefix}tags[${i}]`, value: t })),
      ...metadataFields(`${prefix}metadata`, w.metadata ?? {}),
    ];
  }

  function sizeOf(w: WriteInput): string[] {
    const problems = sizeProblems(w.text, maxChars);
    if (JSON.stringify(w.metadata ?? {}).length > METADATA_MAX_CHARS) problems.push("size.metadata_too_large");
    return problems;
  }

  function newDoc(principal: Principal, w: WriteInput, now: number, hash: string, supersedes: string | null): MemDoc {
    return {
      id: d.newId("mem"),
      teamId: principal.teamId,
      namespace: w.namespace,
      cls: w.class,
      text: w.text,
      tags: w.tags ?? [],
      metadata: w.metadata ?? {},
      pinned: w.pinned ?? false,
      tier: "hot",
      supersedes,
      importance: BASE_IMPORTANCE,
      createdAt: now,
      refreshedAt: now,
      lastUsedAt: null,
      tierChangedAt: now,
      expiresAt: expiresAtFor(w.namespace, now),
      reinforceCount: 0,
      contentHash: hash,
    };
  }

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

  async function write(
    principal: Principal,
    w: WriteInput,
    now: number,
    defer: Defer,
    timing?: Timing,
    opts: { announce?: boolean } = {},
  ) {
    const announce = opts.announce ?? true;
    const mark = stopwatch(timing);
    const ns = resolve(principal, w.namespace, "write", "namespace");
    const verdict = await scanFields(guardFields(w));
    mark("guard");
    const scope = verdict.ok || !verdict.paths.includes("namespace") ? ns.scope : undefined;
    if (!verdict.ok)
      refuse(principal, now, defer, "memory.write", verdict.code, verdict.ruleIds, { scope, class: w.class, announce });
    const size = sizeOf(w);
    if (size.length)
      refuse(principal, now, defer, "memory.write", "rejected", size, { scope, class: w.class, announce });

    let supersedes: string | null = null;
    if (w.supersedes) {
      const [old] = await d.store.getDocs(principal.teamId, [w.supersedes]);
      if (!old || old.namespace !== w.namespace)
        throw invalid("supersedes", "supersedes must name a memory in the same namespace");
      supersedes = old.id;
    }

    // the exact-duplicate lookup (D1) and the nearest neighbours (index) run side by side
    const [hash, [vector]] = await Promise.all([contentHash(w.namespace, w.class, w.text), d.embedder.embed([w.text])]);
    if (!vector) throw new Error("embedder returned no vector");
    const [same, near] = supersedes
      ? [null, []]
      : await Promise.all([
          d.store.findByContentHash(principal.teamId, hash),
          d.index.query(principal.teamId, vector, { topK: 5, filter: { scope: scopeKey(ns.scope) } }),
        ]);
    mark("lookup");
    if (same) {
      await d.store.reinforce(principal.teamId, same.id, now);
      await syncCards(principal.teamId, [same.id]);
      return { status: 200 as const, body: { id: same.id, tier: same.tier, status: "reinforced" as const } };
    }
    const close = near.filter((m) => m.score >= 0.85);
    if (close.length) {
      const docs = new Map(
        (
          await d.store.getDocs(
            principal.teamId,
            close.map((m) => m.id),
          )
        ).map((x) => [x.id, x]),
      );
      const neighbours: Neighbour[] = close.flatMap((m) => {
        const x = docs.get(m.id);
        return x && x.tier === "hot"
          ? [{ id: x.id, namespace: x.namespace, cls: x.cls, text: x.text, similarity: m.score }]
          : [];
      });
      const outcome = classifyWrite(w.text, w.namespace, neighbours);
      if (outcome.kind === "duplicate") {
        await d.store.reinforce(principal.teamId, outcome.of, now);
        await syncCards(principal.teamId, [outcome.of]);
        return { status: 200 as const, body: { id: outcome.of, tier: "hot" as Tier, status: "reinforced" as const } };
      }
      if (outcome.kind === "contradiction") supersedes = outcome.supersedes;
    }

    const doc = newDoc(principal, w, now, hash, supersedes);
    await persist(principal.teamId, [{ doc, ns, vector }], mark);
    return {
      status: 201 as const,
      body: { id: doc.id, tier: doc.tier, status: "created" as const, ...(supersedes ? { supersedes } : {}) },
    };
  }

  /** Many writes at once (imports, seeding): all guarded first, all-or-nothing; duplicates only by exact content. */
  async function writeMany(
    principal: Principal,
    items: WriteInput[],
    now: number,
    defer: Defer,
    source = "memory.bulk",
  ) {
    const parsed = items.map((w, i) => resolve(principal, w.namespace, "write", `items.${i}.namespace`));
    const refused: { i: number; code: "redaction_required" | "pii_detected"; ruleIds: string[] }[] = [];
    const sized: { i: number; ruleIds: string[] }[] = [];
    // one guard pass over every item's fields (one secretlint run per variant kind), split back per item by path
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
        refused.push({
          i,
          code: hits.some((h) => h.family !== "pii") ? "redaction_required" : "pii_detected",
          ruleIds: [...ids].sort(),
        });
      }
    }
    for (let i = 0; i < items.length; i++) {
      const size = sizeOf(items[i] as WriteInput);
      if (size.length) sized.push({ i, ruleIds: size });
    }
    if (refused.length) {
      const code = refused.some((r) => r.code === "redaction_required") ? "redaction_required" : "pii_detected";
      refuse(principal, now, defer, source, code, [...new Set(refused.flatMap((r) => r.ruleIds))].sort(), {
        items: refused.map((r) => r.i),
      });
    }
    if (sized.length) {
      refuse(principal, now, defer, source, "rejected", [...new Set(sized.flatMap((r) => r.ruleIds))].sort(), {
        items: sized.map((r) => r.i),
      });
    }
    const hashes = await Promise.all(items.map((w) => contentHash(w.namespace, w.class, w.text)));
    const results: { id: string; tier: Tier; status: "created" | "reinforced" }[] = new Array(items.length);
    const fresh: number[] = [];
    const seen = new Map<string, number>();
    const existing = await d.store.findByContentHashes(principal.teamId, [...new Set(hashes)]);
    for (let i = 0; i < items.length; i++) {
      const h = hashes[i] as string;
      if (seen.has(h)) continue;
      seen.set(h, i);
      const same = existing.get(h);
      if (same) {
        await d.store.reinforce(principal.teamId, same.id, now);
        results[i] = { id: same.id, tier: same.tier, status: "reinforced" };
      } else fresh.push(i);
    }
    await syncCards(
      principal.teamId,
      results.filter((r) => r?.status === "reinforced").map((r) => r.id),
    );
    const vectors = await d.embedder.embed(fresh.map((i) => (items[i] as WriteInput).text));
    const docs = fresh.map((i, k) => ({
      doc: newDoc(principal, items[i] as WriteInput, now, hashes[i] as string, null),
      ns: parsed[i] as ParsedNamespace,
      vector: vectors[k] as Float32Array,
    }));
    if (docs.length) await persist(principal.teamId, docs);
    fresh.forEach((i, k) => {
      results[i] = { id: (docs[k] as { doc: MemDoc }).doc.id, tier: "hot", status: "created" };
    });
    for (let i = 0; i < items.length; i++) {
      if (!results[i]) {
        const first = results[seen.get(hashes[i] as string) as number] as { id: string; tier: Tier };
        results[i] = { id: first.id, tier: first.tier, status: "reinforced" };
      }
    }
    return results;
  }

  async function query(principal: Principal, q: QueryInput, now: number, timing?: Timing): Promise<QueryResult[]> {
    const mark = stopwatch(timing);
    const parsed = q.namespaces.map((n, i) => resolve(principal, n, "read", `namespaces.${i}`));
    const topK = Math.min(50, Math.max(1, q.top_k ?? 10));
    const [vector] = await d.embedder.embed([q.text]);
    mark("embed");
    if (!vector) throw new Error("embedder returned no vector");
    const scopes = [...new Set(parsed.map((p) => scopeKey(p.scope)))];
    const filter = {
      scope: scopes.length === 1 ? (scopes[0] as string) : { $in: scopes },
      ...(q.classes?.length ? { class: { $in: q.classes } } : {}),
    };
    const actorKey = actorKeyOf(principal);
    let rows: RankRow[];
    let similarity: Map<string, number>;
    if (d.index.queryCards && cards && actorKey === "team") {
      // the local index keeps a card (read model) beside each vector: rank without reading D1
      const matches = await d.index.queryCards(principal.teamId, vector, { topK: CANDIDATES, filter });
      mark("index");
      similarity = new Map(matches.map((m) => [m.id, m.score]));
      rows = matches.flatMap((m) => (m.card ? [fromCard(m.id, m.card as MemCard)] : []));
      const missing = matches.filter((m) => !m.card).map((m) => m.id);
      if (missing.length) {
        rows.push(...(await d.store.getHotDocsForActor(principal.teamId, missing, actorKey, now)));
        mark("d1");
      }
      rows = rows.filter((x) => x.expiresAt === null || x.expiresAt > now);
    } else {
      const matches = await d.index.query(principal.teamId, vector, { topK: CANDIDATES, filter });
      mark("index");
      similarity = new Map(matches.map((m) => [m.id, m.score]));
      rows = matches.length
        ? await d.store.getHotDocsForActor(principal.teamId, [...similarity.keys()], actorKey, now)
        : [];
      mark("d1");
    }
    const visible = rows.filter(
      (x) =>
        q.namespaces.some((n) => withinNamespace(x.namespace, n)) &&
        (!q.classes?.length || q.classes.includes(x.cls)) &&
        // a scoped token never sees a sibling's namespace, even below a shared prefix
        parsed.some((p) => withinNamespace(x.namespace, p.namespace)),
    );
    const byId = new Map(visible.map((x) => [x.id, x]));
    const ranked = rankMemories(
      visible.map((x) => ({
        id: x.id,
        similarity: similarity.get(x.id) ?? 0,
        importance: x.actorImportance,
        cls: x.cls,
        pinned: x.pinned,
        refreshedAt: x.refreshedAt,
      })),
      now,
      topK,
    );
    return ranked.map((r) => {
      const x = byId.get(r.id) as RankRow;
      return {
        id: x.id,
        namespace: x.namespace,
        class: x.cls,
        text: x.text,
        tags: x.tags,
        pinned: x.pinned,
        supersedes: x.supersedes,
        created_at: x.createdAt,
        score: round(r.score),
        scores: {
          similarity: round(r.scores.similarity),
          importance: round(r.scores.importance),
          recency: round(r.scores.recency),
        },
      };
    });
  }

  /**
   * Refreshes the cards of `ids` from D1 (the source of truth) after anything that changes their ranking inputs.
   * Best-effort: a failure is logged; the card stays stale until the next change or a reindex.
   */
  async function syncCards(teamId: string, ids: string[]) {
    if (!d.index.setCards || !ids.length) return;
    try {
      const docs = await d.store.getHotDocsForActor(teamId, ids, "team", 0);
      await d.index.setCards(
        teamId,
        docs.map((x) => ({ id: x.id, card: cardOf(x, x.actorImportance) })),
      );
    } catch (e) {
      console.error(
        JSON.stringify({ level: "error", msg: "memory card sync failed", team_id: teamId, error: String(e) }),
      );
    }
  }

  /** Validated use: +8 importance for the caller's actor key per doc (once per run when run_id is given). */
  async function use(principal: Principal, ids: string[], runId: string | undefined, now: number) {
    if (runId) {
      // the run id is stored with each use event: the guard reads it like any other stored value
      const v = await scanFields([{ path: "run_id", value: runId }]);
      if (!v.ok) throw new AppFailure({ code: v.code, ruleIds: v.ruleIds });
    }
    const unique = [...new Set(ids)];
    const docs = await d.store.getDocs(principal.teamId, unique);
    const visible = docs.filter((x) => {
      const p = parseNamespace(x.namespace);
      return p.ok && fence(principal, p.value, "read").ok && x.tier !== "archived";
    });
    const actorKey = actorKeyOf(principal);
    const visibleIds = new Set(visible.map((x) => x.id));
    const eventId = async (docId: string) => {
      if (!runId) return d.newId("use");
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${docId}\n${actorKey}\n${runId}`));
      return `use_${[...new Uint8Array(digest)]
        .slice(0, 16)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("")}`;
    };
    const uses = await Promise.all(
      visible.map(async (x) => ({ docId: x.id, actorKey, runId: runId ?? null, eventId: await eventId(x.id) })),
    );
    const boosted = await d.store.recordUses(principal.teamId, uses, now);
    await syncCards(principal.teamId, boosted);

    // a used memory that had cooled down comes back into the index
    const cooled = visible.filter((x) => boosted.includes(x.id) && (x.tier === "warm" || x.tier === "cold"));
    if (cooled.length) await moveTier(principal.teamId, cooled, "hot", now);
    return {
      used: unique.filter((id) => visibleIds.has(id)),
      boosted,
      not_found: unique.filter((id) => !visibleIds.has(id)),
      actor_key: actorKey,
    };
  }

  /** Moves docs between tiers keeping the index in step: only hot docs are indexed. */
  async function moveTier(teamId: string, docs: MemDoc[], tier: Tier, now: number) {
    if (!docs.length) return;
    if (tier === "hot") {
      const vectors = await d.embedder.embed(docs.map((x) => x.text));
      await d.index.upsert(
        teamId,
        docs.flatMap((x, i) => {
          const p = parseNamespace(x.namespace);
          return p.ok ? [{ id: x.id, values: vectors[i] as Float32Array, metadata: metaOf(x, p.value) }] : [];
        }),
      );
      await d.store.setTier(
        docs.map((x) => x.id),
        tier,
        now,
      );
      await syncCards(
        teamId,
        docs.map((x) => x.id),
      );
    } else {
      // D1 first: were the index delete to fail, the memory stays findable (a stale entry) rather than lost
      await d.store.setTier(
        docs.map((x) => x.id),
        tier,
        now,
      );
      await d.index.delete(
        teamId,
        docs.filter((x) => x.tier === "hot").map((x) => x.id),
      );
    }
  }

  /** Rigid memory (charter, allowlist): import-only, pinned, never derived from episodes. */
  async function importRigid(
    principal: Principal,
    body: {
      namespace: string;
      kind: "charter" | "allowlist";
      entries: { text: string; tags?: string[]; metadata?: Record<string, unknown> }[];
      replace?: boolean;
    },
    now: number,
    defer: Defer,
  ) {
    const items: WriteInput[] = body.entries.map((e) => ({
      namespace: body.namespace,
      class: "rigid",
      text: e.text,
      tags: e.tags,
      metadata: { ...(e.metadata ?? {}), rigid_kind: body.kind },
      pinned: true,
    }));
    resolve(principal, body.namespace, "write", "namespace");
    let archived: string[] = [];
    if (body.replace) {
      // guard before archiving anything: a refused import changes nothing
      for (let i = 0; i < items.length; i++) {
        const v = await scanFields(guardFields(items[i] as WriteInput, `entries.${i}.`));
        if (!v.ok) refuse(principal, now, defer, "memory.import", v.code, v.ruleIds, { items: [i] });
      }
      archived = await d.store.archiveRigid(principal.teamId, body.namespace, body.kind, now);
      await d.index.delete(principal.teamId, archived);
    }
    const results = await writeMany(principal, items, now, defer, "memory.import");
    return { imported: results.length, ids: results.map((r) => r.id), archived };
  }

  /** Re-embeds and re-indexes a team's hot memories (after switching embedders, or to rebuild a lost index). */
  async function reindex(teamId: string, opts: { batch?: number } = {}) {
    const batch = opts.batch ?? 100;
    let after = "";
    let count = 0;
    for (;;) {
      const docs = await d.store.hotDocsPage(teamId, after, batch);
      if (!docs.length) break;
      const vectors = await d.embedder.embed(docs.map((x) => x.text));
      await d.index.upsert(
        teamId,
        docs.flatMap((x, i) => {
          const p = parseNamespace(x.namespace);
          return p.ok ? [{ id: x.id, values: vectors[i] as Float32Array, metadata: metaOf(x, p.value) }] : [];
        }),
      );
      await syncCards(
        teamId,
        docs.map((x) => x.id),
      );
      count += docs.length;
      after = (docs[docs.length - 1] as MemDoc).id;
    }
    return { reindexed: count };
  }

  /** Refreshes the cards of hot memories whose team importance changed since `since` (after an external decay). */
  async function refreshCardsSince(since: number, opts: { page?: number } = {}) {
    let after = "";
    let refreshed = 0;
    for (;;) {
      const rows = await d.store.importanceChangedSince(since, after, opts.page ?? 500);
      if (!rows.length) break;
      const byTeam = new Map<string, string[]>();
      for (const r of rows) byTeam.set(r.teamId, [...(byTeam.get(r.teamId) ?? []), r.docId]);
      for (const [teamId, ids] of byTeam) await syncCards(teamId, ids);
      refreshed += rows.length;
      after = (rows[rows.length - 1] as { docId: string }).docId;
    }
    return { refreshed };
  }

  return {
    write,
    writeMany,
    query,
    use,
    importRigid,
    moveTier,
    reindex,
    refreshCardsSince,
  };
}

/** What the local index keeps beside a vector: everything ranking and the response need, with the team importance. */
type MemCard = {
  ns: string;
  cls: MemoryClass;
  text: string;
  tags: string[];
  pinned: boolean;
  sup: string | null;
  at: number;
  ref: number;
  exp: number | null;
  imp: number;
};
type RankRow = Pick<
  MemDocForActor,
  | "id"
  | "namespace"
  | "cls"
  | "text"
  | "tags"
  | "pinned"
  | "supersedes"
  | "createdAt"
  | "refreshedAt"
  | "expiresAt"
  | "actorImportance"
>;

function cardOf(doc: MemDoc, teamImportance: number): MemCard {
  return {
    ns: doc.namespace,
    cls: doc.cls,
    text: doc.text,
    tags: doc.tags,
    pinned: doc.pinned,
    sup: doc.supersedes,
    at: doc.createdAt,
    ref: doc.refreshedAt,
    exp: doc.expiresAt,
    imp: teamImportance,
  };
}

function fromCard(id: string, c: MemCard): RankRow {
  return {
    id,
    namespace: c.ns,
    cls: c.cls,
    text: c.text,
    tags: c.tags,
    pinned: c.pinned,
    supersedes: c.sup,
    createdAt: c.at,
    refreshedAt: c.ref,
    expiresAt: c.exp,
    actorImportance: c.imp,
  };
}
