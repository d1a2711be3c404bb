// SchemaGuard (seed 003 §10): checks extractor output against the schema and the ground truth; classifies the failure.
import { CODE_PATTERN, FIELDS, type Field, isIsoDate, type Truth } from "./schema.ts";

export type Reason = "missing_field" | "wrong_type" | "wrong_value" | "extra_field" | "pattern_mismatch";
export type Finding = { path: string; reason: Reason };
export type Verdict =
  | { pass: true; fields: Truth; used_mem_ids: string[] }
  | { pass: false; failure_class: "schema_invalid" | "wrong_value"; findings: Finding[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const FIELD_TYPES: Record<Field, "string" | "number"> = {
  title: "string",
  code: "string",
  amount: "number",
  date: "string",
};

/** The schema half: shape, types, patterns, unknown keys. */
export function schemaFindings(output: unknown): Finding[] {
  if (!isObject(output)) return [{ path: "", reason: "wrong_type" }];
  const out: Finding[] = [];
  for (const k of Object.keys(output))
    if (k !== "extracted_fields" && k !== "used_mem_ids") out.push({ path: k, reason: "extra_field" });
  const ids = output.used_mem_ids;
  if (ids === undefined) out.push({ path: "used_mem_ids", reason: "missing_field" });
  else if (!Array.isArray(ids) || ids.some((x) => typeof x !== "string"))
    out.push({ path: "used_mem_ids", reason: "wrong_type" });
  const f = output.extracted_fields;
  if (f === undefined) return [...out, { path: "extracted_fields", reason: "missing_field" }];
  if (!isObject(f)) return [...out, { path: "extracted_fields", reason: "wrong_type" }];
  for (const [k, v] of Object.entries(f)) {
    const path = `extracted_fields.${k}`;
    if (!(FIELDS as readonly string[]).includes(k)) out.push({ path, reason: "extra_field" });
    else if (typeof v !== FIELD_TYPES[k as Field] || (typeof v === "number" && !Number.isFinite(v)))
      out.push({ path, reason: "wrong_type" });
    else if (k === "code" && !CODE_PATTERN.test(v as string)) out.push({ path, reason: "pattern_mismatch" });
    else if (k === "date" && !isIsoDate(v as string)) out.push({ path, reason: "pattern_mismatch" });
  }
  return out;
}

/** The truth half: every truth field present and equal (amount ±0.01), nothing the truth does not state. */
export function truthFindings(fields: Truth, truth: Truth): Finding[] {
  const out: Finding[] = [];
  for (const k of FIELDS) {
    const path = `extracted_fields.${k}`;
    const want = truth[k];
    const got = fields[k];
    if (want === undefined) {
      if (got !== undefined) out.push({ path, reason: "extra_field" });
    } else if (got === undefined) out.push({ path, reason: "missing_field" });
    else if (k === "amount" ? Math.abs((got as number) - (want as number)) > 0.01 + 1e-9 : got !== want)
      out.push({ path, reason: "wrong_value" });
  }
  return out;
}

/** Schema violations → `schema_invalid` (soft gate, one stricter re-prompt); truth mismatches → `wrong_value` (dead letter). */
export function schemaGuard(output: unknown, truth: Truth): Verdict {
  const schema = schemaFindings(output);
  if (schema.length > 0) return { pass: false, failure_class: "schema_invalid", findings: schema };
  const o = output as { extracted_fields: Truth; used_mem_ids: string[] };
  const truthIssues = truthFindings(o.extracted_fields, truth);
  if (truthIssues.length > 0) return { pass: false, failure_class: "wrong_value", findings: truthIssues };
  return { pass: true, fields: o.extracted_fields, used_mem_ids: o.used_mem_ids };
}
