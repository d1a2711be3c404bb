// Persister's summary and the Verifier: a canonical digest of what was persisted, checked against the accepted output.
import { createHash } from "node:crypto";
import type { Doc, Truth } from "./schema.ts";

/** JSON with sorted keys, so equal values always serialise (and hash) the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export const digest = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");

export type Persisted = { doc_id: string; fields: Truth; digest: string; summary: string };

/** Persister's record: a summary (no raw document text, no URL), the accepted fields and their digest. */
export function persistRecord(doc: Doc, fields: Truth): Persisted {
  const names = Object.keys(fields).sort().join(", ");
  const summary = `Health DAG: ${doc.kind} (${doc.noise} noise) ${fields.code ?? "without code"} extracted and verified: ${names}.`;
  return { doc_id: doc.doc_id, fields, digest: digest({ doc_id: doc.doc_id, fields }), summary };
}

/** Verifier: the persisted digest must be the digest of the persisted fields, and those the fields SchemaGuard accepted. */
export function verify(record: Persisted, accepted: Truth): { ok: true } | { ok: false; reason: string } {
  if (record.digest !== digest({ doc_id: record.doc_id, fields: record.fields }))
    return { ok: false, reason: "digest_mismatch" };
  if (canonicalJson(record.fields) !== canonicalJson(accepted)) return { ok: false, reason: "fields_changed" };
  return { ok: true };
}
