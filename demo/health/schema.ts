// The Health DAG's contracts (seed 003 §10): ExtractorLLM output v1, document kinds, noise levels and ground truth.

export const KINDS = ["invoice", "ticket", "status"] as const;
export type Kind = (typeof KINDS)[number];
export const NOISES = ["low", "med", "high"] as const;
export type Noise = (typeof NOISES)[number];

export const FIELDS = ["title", "code", "amount", "date"] as const;
export type Field = (typeof FIELDS)[number];

/** Ground truth: the fields a document really states; a field the document does not state is absent. */
export type Truth = { title?: string; code?: string; amount?: number; date?: string };

export type Doc = { doc_id: string; kind: Kind; noise: Noise; seed: number; text: string };
export type GoldenCase = { doc: Doc; truth: Truth };

export type ExtractorOutput = { extracted_fields: Truth; used_mem_ids: string[] };

export const CODE_PATTERN = /^[A-Z]{3}-\d{4}$/;
export const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The ExtractorLLM Output v1 JSON Schema, verbatim from seed 003 §10 (also the OpenAI json_schema response format). */
export const EXTRACTOR_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    extracted_fields: {
      type: "object",
      properties: {
        title: { type: "string" },
        code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
        amount: { type: "number" },
        date: { type: "string", format: "date" },
      },
      additionalProperties: false,
    },
    used_mem_ids: { type: "array", items: { type: "string" } },
  },
  required: ["extracted_fields", "used_mem_ids"],
  additionalProperties: false,
} as const;

/** A calendar date check on top of the ISO shape (2026-02-30 is not a date). */
export function isIsoDate(s: string): boolean {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
