// Shared pieces of the memory use-cases: their dependencies, namespace resolution as a Result, index cards, timings.

import type { AppError } from "../../errors";
import { log } from "../../lib/log";
import { err, ok, type Result } from "../../lib/result";
import type { Embedder } from "../../ports/embedder";
import type { EventBus } from "../../ports/event-bus";
import type { MemDoc, MemDocForActor, MemoryStore } from "../../ports/memory-store";
import type { VectorIndex } from "../../ports/vector-index";
import { scopeKey } from "./content";
import { evidenceOf } from "./evidence";
import { type Caller, fence, type ParsedNamespace, parseNamespace } from "./namespaces";
import type { MemoryClass } from "./ranking";

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

/** per-phase durations in ms, for the Server-Timing header */
export type Timing = Record<string, number>;
export function stopwatch(timing?: Timing) {
  let last = performance.now();
  return (phase: string) => {
    if (!timing) return;
    const t = performance.now();
    timing[phase] = (timing[phase] ?? 0) + (t - last);
    last = t;
  };
}

export const forbidden = (message: string): AppError => ({ code: "forbidden", message });
export const invalid = (path: string, message: string): AppError => ({
  code: "validation_failed",
  issues: [{ path, message }],
});

/** Parses a namespace and checks the caller may reach it: 400 on a malformed one, 403 outside the caller's fence. */
export function resolveNamespace(
  caller: Caller,
  namespace: string,
  mode: "read" | "write",
  path: string,
): Result<ParsedNamespace, AppError> {
  const parsed = parseNamespace(namespace);
  if (!parsed.ok) return err(invalid(path, parsed.error));
  const allowed = fence(caller, parsed.value, mode);
  if (!allowed.ok) return err(forbidden(allowed.error));
  return ok(parsed.value);
}

/** Resolves many namespaces; the first failure wins. */
export function resolveAll(
  caller: Caller,
  namespaces: string[],
  mode: "read" | "write",
  path: (i: number) => string,
): Result<ParsedNamespace[], AppError> {
  const out: ParsedNamespace[] = [];
  for (let i = 0; i < namespaces.length; i++) {
    const r = resolveNamespace(caller, namespaces[i] as string, mode, path(i));
    if (!r.ok) return r;
    out.push(r.value);
  }
  return ok(out);
}

export function metaOf(doc: Pick<MemDoc, "namespace" | "cls">, ns: ParsedNamespace) {
  return { scope: scopeKey(ns.scope), class: doc.cls };
}

/** What the local index keeps beside a vector: everything ranking and the response need, with the team importance. */
export type MemCard = {
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
  /** the artifact ids of `metadata.evidence` (absent when none) */
  ev?: string[];
};
export type RankRow = Pick<
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
> & { evidence: string[] };

/** A memory row read from D1 as ranking reads it: its evidence lifted out of the metadata. */
export const rankRowOf = (d: MemDocForActor): RankRow => ({ ...d, evidence: evidenceOf(d.metadata) });

export function cardOf(doc: MemDoc, teamImportance: number): MemCard {
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
    ...(evidenceOf(doc.metadata).length ? { ev: evidenceOf(doc.metadata) } : {}),
  };
}

export function fromCard(id: string, c: MemCard): RankRow {
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
    evidence: c.ev ?? [],
  };
}

/**
 * Refreshes the cards of `ids` from D1 (the source of truth) after anything that changes their ranking inputs.
 * Best-effort: a failure is logged; the card stays stale until the next change or a reindex.
 */
export async function syncCards(d: MemoryServiceDeps, teamId: string, ids: string[]) {
  if (!d.index.setCards || !ids.length) return;
  try {
    const docs = await d.store.getHotDocsForActor(teamId, ids, "team", 0);
    await d.index.setCards(
      teamId,
      docs.map((x) => ({ id: x.id, card: cardOf(x, x.actorImportance) })),
    );
  } catch (e) {
    log.error("memory card sync failed", { team_id: teamId, error: String(e) });
  }
}
