// Memory query use-case: nearest neighbours from the index, re-ranked by importance and recency, fenced per caller.
import type { AppError } from "../../errors";
import { ok, type Result } from "../../lib/result";
import { MAX_TOP_K } from "../../lib/vector-filter";
import { scopeKey } from "./content";
import {
  fromCard,
  type MemCard,
  type MemoryServiceDeps,
  type RankRow,
  rankRowOf,
  resolveAll,
  stopwatch,
  type Timing,
} from "./core";
import { actorKeyOf, type Caller, type ParsedNamespace, withinNamespace } from "./namespaces";
import { type MemoryClass, rankMemories } from "./ranking";

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
  /** the artifacts the memory summarizes (`metadata.evidence`) */
  evidence: string[];
};

/** how many nearest neighbours the index returns before importance and recency re-rank them */
const CANDIDATES = MAX_TOP_K;
const round = (x: number) => Math.round(x * 1e6) / 1e6;
type Filter = { scope: string | { $in: string[] }; class?: { $in: MemoryClass[] } };
type Candidates = { rows: RankRow[]; similarity: Map<string, number> };

/** The local index keeps a card (read model) beside each vector: rank without reading D1. */
async function fromCards(
  d: MemoryServiceDeps,
  teamId: string,
  vector: Float32Array,
  filter: Filter,
  now: number,
  mark: (p: string) => void,
) {
  const matches = await d.index.queryCards?.(teamId, vector, { topK: CANDIDATES, filter });
  mark("index");
  const similarity = new Map((matches ?? []).map((m) => [m.id, m.score]));
  const rows = (matches ?? []).flatMap((m) => (m.card ? [fromCard(m.id, m.card as MemCard)] : []));
  const missing = (matches ?? []).filter((m) => !m.card).map((m) => m.id);
  if (missing.length) {
    rows.push(...(await d.store.getHotDocsForActor(teamId, missing, "team", now)).map(rankRowOf));
    mark("d1");
  }
  return { rows: rows.filter((x) => x.expiresAt === null || x.expiresAt > now), similarity };
}

async function fromD1(
  d: MemoryServiceDeps,
  teamId: string,
  vector: Float32Array,
  filter: Filter,
  actorKey: string,
  now: number,
  mark: (p: string) => void,
): Promise<Candidates> {
  const matches = await d.index.query(teamId, vector, { topK: CANDIDATES, filter });
  mark("index");
  const similarity = new Map(matches.map((m) => [m.id, m.score]));
  const docs = matches.length ? await d.store.getHotDocsForActor(teamId, [...similarity.keys()], actorKey, now) : [];
  const rows = docs.map(rankRowOf);
  mark("d1");
  return { rows, similarity };
}

function toResult(x: RankRow, r: ReturnType<typeof rankMemories>[number]): QueryResult {
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
    evidence: x.evidence,
  };
}

/** The index filter of a query: its namespaces' scopes (one, or any of several) and the classes asked for. */
function filterOf(parsed: ParsedNamespace[], classes: MemoryClass[] | undefined): Filter {
  const scopes = [...new Set(parsed.map((p) => scopeKey(p.scope)))];
  return {
    scope: scopes.length === 1 ? (scopes[0] as string) : { $in: scopes },
    ...(classes?.length ? { class: { $in: classes } } : {}),
  };
}

/** Candidates the caller may see, ranked by similarity, importance and recency; the best topK as results. */
function rankVisible(q: QueryInput, parsed: ParsedNamespace[], { rows, similarity }: Candidates, now: number) {
  const topK = Math.min(50, Math.max(1, q.top_k ?? 10));
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
  return ranked.map((r) => toResult(byId.get(r.id) as RankRow, r));
}

async function query(
  d: MemoryServiceDeps,
  caller: Caller,
  q: QueryInput,
  now: number,
  timing?: Timing,
): Promise<Result<QueryResult[], AppError>> {
  const mark = stopwatch(timing);
  const resolved = resolveAll(caller, q.namespaces, "read", (i) => `namespaces.${i}`);
  if (!resolved.ok) return resolved;
  const parsed: ParsedNamespace[] = resolved.value;
  const [vector] = await d.embedder.embed([q.text]);
  mark("embed");
  if (!vector) throw new Error("embedder returned no vector");
  const filter = filterOf(parsed, q.classes);
  const actorKey = actorKeyOf(caller);
  const candidates =
    d.index.queryCards && (d.useCards ?? true) && actorKey === "team"
      ? await fromCards(d, caller.teamId, vector, filter, now, mark)
      : await fromD1(d, caller.teamId, vector, filter, actorKey, now, mark);
  return ok(rankVisible(q, parsed, candidates, now));
}

/** The query use-case over one set of dependencies. */
export function createMemoryQuery(d: MemoryServiceDeps) {
  return {
    query: (caller: Caller, q: QueryInput, now: number, timing?: Timing) => query(d, caller, q, now, timing),
  };
}
