// The Health DAG as pure steps: extractor → JsonRestyler → SchemaGuard (one stricter re-prompt on schema_invalid) → Persister → Verifier.
import type { ExtractOptions, Extractor } from "./extractor.ts";
import { restyle } from "./restyler.ts";
import type { GoldenCase } from "./schema.ts";
import { type Finding, schemaGuard } from "./schema-guard.ts";
import { type Persisted, persistRecord, verify } from "./verifier.ts";

export type Attempt = {
  strict: boolean;
  raw: unknown;
  output: unknown;
  tokens_in: number;
  tokens_out: number;
  verdict: ReturnType<typeof schemaGuard>;
};
export type DagResult =
  | { status: "pass"; attempts: Attempt[]; record: Persisted; used_mem_ids: string[] }
  | {
      status: "dead_letter";
      attempts: Attempt[];
      failure_class: "schema_invalid" | "wrong_value" | "verify_failed";
      findings: Finding[];
    };

/** One extraction attempt through the restyler and the guard. */
export async function attempt(c: GoldenCase, extractor: Extractor, options: ExtractOptions): Promise<Attempt> {
  const { output: raw, tokens_in, tokens_out } = await extractor(c.doc, options);
  const output = restyle(raw);
  return { strict: options.strict ?? false, raw, output, tokens_in, tokens_out, verdict: schemaGuard(output, c.truth) };
}

/**
 * Runs one document through the whole DAG locally (the demo drives the same steps through Warden's orders and
 * gates): `schema_invalid` gets exactly one stricter re-prompt, `wrong_value` is dead-lettered without retry.
 */
export async function runDag(
  c: GoldenCase,
  extractor: Extractor,
  memories: ExtractOptions["memories"] = [],
): Promise<DagResult> {
  const attempts = [await attempt(c, extractor, { strict: false, memories })];
  let last = attempts[0] as Attempt;
  if (!last.verdict.pass && last.verdict.failure_class === "schema_invalid") {
    last = await attempt(c, extractor, { strict: true, memories });
    attempts.push(last);
  }
  const v = last.verdict;
  if (!v.pass) return { status: "dead_letter", attempts, failure_class: v.failure_class, findings: v.findings };
  const record = persistRecord(c.doc, v.fields);
  const checked = verify(record, v.fields);
  if (!checked.ok)
    return {
      status: "dead_letter",
      attempts,
      failure_class: "verify_failed",
      findings: [{ path: checked.reason, reason: "wrong_value" }],
    };
  return { status: "pass", attempts, record, used_mem_ids: v.used_mem_ids };
}
