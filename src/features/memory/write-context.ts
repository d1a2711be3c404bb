// What the memory write use-cases share: their context (deps, summary limit, commit turns), refusals, persist.

import type { MemDoc } from "../../ports/memory-store";
import { newTurns, type Turns } from "./commit-turns";
import { DEFAULT_SUMMARY_MAX_CHARS } from "./content";
import { cardOf, type MemoryServiceDeps, metaOf } from "./core";
import type { Caller, ParsedNamespace } from "./namespaces";
import type { Tier } from "./ranking";
import { refusal, sizeOf as sizeOfWrite, type WriteInput } from "./write-checks";

export type WriteOutcome = { id: string; tier: Tier; status: "created" | "reinforced"; supersedes?: string };

/** A guarded write ready for its commit. */
export type Pending = {
  caller: Caller;
  w: WriteInput;
  ns: ParsedNamespace;
  now: number;
  supersedes: string | null;
  mark: (phase: string) => void;
};

/** One memory service's write state: built once, handed to every write use-case. */
export type WriteContext = {
  d: MemoryServiceDeps;
  maxChars: number;
  /** per team with a commit in flight in this isolate: the writes waiting for their turn (commit-turns.ts) */
  turns: Turns;
};

export function writeContext(d: MemoryServiceDeps): WriteContext {
  return { d, maxChars: d.summaryMaxChars ?? DEFAULT_SUMMARY_MAX_CHARS, turns: newTurns() };
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
