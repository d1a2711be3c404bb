// What the memory write use-cases share: their context (deps, summary limit, waiting group commits), refusals, persist.

import type { MemDoc } from "../../ports/memory-store";
import { DEFAULT_SUMMARY_MAX_CHARS } from "./content";
import { cardOf, type MemoryServiceDeps, metaOf } from "./core";
import type { Caller, ParsedNamespace } from "./namespaces";
import type { Tier } from "./ranking";
import { refusal, sizeOf as sizeOfWrite, type WriteInput } from "./write-checks";

export type WriteOutcome = { id: string; tier: Tier; status: "created" | "reinforced"; supersedes?: string };

/** A guarded write waiting for its team's next group commit. */
export type Pending = {
  caller: Caller;
  w: WriteInput;
  ns: ParsedNamespace;
  now: number;
  supersedes: string | null;
  mark: (phase: string) => void;
  resolve: (o: WriteOutcome) => void;
  reject: (e: unknown) => void;
};

/** One memory service's write state: built once, handed to every write use-case. */
export type WriteContext = {
  d: MemoryServiceDeps;
  maxChars: number;
  /** per team with a commit in flight: the writes waiting for the next one (no entry when none is in flight) */
  waiting: Map<string, Pending[]>;
};

export function writeContext(d: MemoryServiceDeps): WriteContext {
  return { d, maxChars: d.summaryMaxChars ?? DEFAULT_SUMMARY_MAX_CHARS, waiting: new Map() };
}

/** refusal's arguments after the deps and the summary limit */
type RefusalArgs = Parameters<typeof refusal> extends [unknown, unknown, ...infer Rest] ? Rest : never;

export const refuse = (ctx: WriteContext, ...args: RefusalArgs) => refusal(ctx.d, ctx.maxChars, ...args);
export const sizeOf = (ctx: WriteContext, w: WriteInput) => sizeOfWrite(w, ctx.maxChars);

/** A new memory ready to store: its row, its namespace and its vector. */
export type NewDoc = { doc: MemDoc; ns: ParsedNamespace; vector: Float32Array };

/** D1 first, then the index; if the index fails the rows are removed again so nothing half-stored remains. */
export async function persist(
  { d }: WriteContext,
  teamId: string,
  docs: NewDoc[],
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
