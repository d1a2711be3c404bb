// The Health DAG of seed 003 §9 as a declared work graph: per document, extract (persona extractor) → persist (cpu).
import type { WorkItemV1 } from "../../../contracts/work-item.v1";

export const HEALTH_KINDS = ["invoice", "ticket", "status"] as const;
export const HEALTH_NOISE = ["low", "med", "high"] as const;
/** One document the DAG runs over: its id, kind (the slash command's template) and noise level. */
export type HealthDoc = { doc_id: string; kind: (typeof HEALTH_KINDS)[number]; noise: (typeof HEALTH_NOISE)[number] };

/**
 * The two personas of the DAG: the extractor is the LLM step (limit 1: the seed's persona mutex, one model call at
 * a time), cpu the tool-only steps (persister and verifier), two at once.
 */
export const HEALTH_PERSONAS = {
  extractor: { name: "ExtractorLLM", role: "extract fields (LLM), restyle, SchemaGuard", concurrency_limit: 1 },
  cpu: { name: "CPU tools", role: "persist the summary to memory, verify its digest", concurrency_limit: 2 },
} as const;

export const extractItemId = (docId: string) => `extract-${docId}`;
export const persistItemId = (docId: string) => `persist-${docId}`;

/**
 * Per document `extract-<doc_id>` (ExtractorLLM → JsonRestyler → SchemaGuard; its schema_invalid and wrong_value
 * branches follow the retry taxonomy) then `persist-<doc_id>` (Persister → Verifier), which receives the
 * extraction under `input_json.deps` — so a dead-lettered extraction skips its persist.
 */
export function healthDagItems(docs: readonly HealthDoc[]): WorkItemV1[] {
  return docs.flatMap((d) => [
    {
      item_id: extractItemId(d.doc_id),
      goal: `extract ${d.kind} fields`,
      input_json: { doc_id: d.doc_id, kind: d.kind, noise: d.noise },
      depends_on: [],
      persona_id: "extractor",
      output_schema_id: "extractor-output.v1",
      timeout_sec: 60,
    },
    {
      item_id: persistItemId(d.doc_id),
      goal: `persist and verify the ${d.kind} record`,
      input_json: { doc_id: d.doc_id, kind: d.kind },
      depends_on: [extractItemId(d.doc_id)],
      persona_id: "cpu",
      output_schema_id: "persister-output.v1",
      timeout_sec: 60,
    },
  ]);
}
