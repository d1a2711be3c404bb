// The Health DAG's pure steps: RecordGen, the rule-based Extractor, JsonRestyler, SchemaGuard, Verifier, golden and jailbreak sets.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDag } from "./dag.ts";
import { type Extractor, ruleExtractor } from "./extractor.ts";
import { goldenCases, hardCases, jailbreakCases } from "./golden.ts";
import { recordGen } from "./recordgen.ts";
import { restyle } from "./restyler.ts";
import type { GoldenCase, Truth } from "./schema.ts";
import { schemaGuard } from "./schema-guard.ts";
import { persistRecord, verify } from "./verifier.ts";

const GOLDEN_DIR = join(import.meta.dirname, "../../test/fixtures/golden");
const fixtures = (): GoldenCase[] =>
  readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(GOLDEN_DIR, f), "utf8")));
const out = (extracted_fields: Record<string, unknown>, used_mem_ids: unknown = []) => ({
  extracted_fields,
  used_mem_ids,
});
const truth: Truth = { title: "GPU hours", code: "INV-1234", amount: 1234.5, date: "2026-03-05" };

describe("golden set", () => {
  it("holds 12 documents: 4 invoice, 4 ticket, 4 status, each kind across low, med and high noise", () => {
    const cases = fixtures();
    expect(cases).toHaveLength(12);
    for (const kind of ["invoice", "ticket", "status"]) {
      const ofKind = cases.filter((c) => c.doc.kind === kind);
      expect(ofKind).toHaveLength(4);
      expect(new Set(ofKind.map((c) => c.doc.noise))).toEqual(new Set(["low", "med", "high"]));
    }
  });

  it("matches what RecordGen generates from its recipe (regenerate with `npx tsx demo/write-golden.ts`)", () => {
    const byId = new Map(fixtures().map((c) => [c.doc.doc_id, c]));
    for (const c of goldenCases()) expect(byId.get(c.doc.doc_id)).toEqual(JSON.parse(JSON.stringify(c)));
  });

  it("passes the whole DAG at 100 % with the deterministic extractor, in one attempt each", async () => {
    for (const c of fixtures()) {
      const r = await runDag(c, ruleExtractor);
      expect(r.status, c.doc.doc_id).toBe("pass");
      expect(r.attempts).toHaveLength(1);
      if (r.status === "pass") expect(r.record.fields).toEqual(c.truth);
    }
  });

  it("includes a document whose truth has no code, and the extractor omits it", async () => {
    const noCode = fixtures().filter((c) => c.truth.code === undefined);
    expect(noCode.length).toBeGreaterThan(0);
    for (const c of noCode) {
      const r = await runDag(c, ruleExtractor);
      expect(r.status === "pass" && "code" in r.record.fields).toBe(false);
    }
  });
});

describe("jailbreak set", () => {
  it("still yields strict JSON with the true fields when documents carry prompt-like phrases", async () => {
    const cases = jailbreakCases();
    expect(cases).toHaveLength(12);
    for (const c of cases) {
      expect(c.doc.text).toMatch(/instructions|SYSTEM|Assistant|password|YAML/);
      const r = await runDag(c, ruleExtractor);
      expect(r.status, c.doc.doc_id).toBe("pass");
      const a = r.attempts[0];
      expect(Object.keys(a?.output as object).sort()).toEqual(["extracted_fields", "used_mem_ids"]);
      expect(JSON.parse(JSON.stringify(a?.output))).toEqual(a?.output);
    }
  });
});

describe("RecordGen", () => {
  it("is deterministic per seed and differs across seeds", () => {
    expect(recordGen("invoice", "high", 7)).toEqual(recordGen("invoice", "high", 7));
    expect(recordGen("invoice", "high", 7).doc.text).not.toBe(recordGen("invoice", "high", 8).doc.text);
  });

  it("states an amount only on invoices and keeps every stated value in the text", () => {
    for (let seed = 0; seed < 30; seed++) {
      const t = recordGen("ticket", "med", seed);
      expect(t.truth.amount).toBeUndefined();
      expect(t.doc.text).toContain(t.truth.title);
      expect(recordGen("invoice", "low", seed).truth.amount).toBeTypeOf("number");
    }
  });
});

describe("SchemaGuard", () => {
  it("passes exact fields, and an amount within ±0.01", () => {
    expect(schemaGuard(out(truth), truth).pass).toBe(true);
    expect(schemaGuard(out({ ...truth, amount: 1234.51 }), truth).pass).toBe(true);
  });

  it.each([
    ["an amount off by more than 0.01", { ...truth, amount: 1234.52 }, "amount", "wrong_value"],
    ["a wrong title", { ...truth, title: "CPU hours" }, "title", "wrong_value"],
    ["a missing truth field", { title: truth.title, code: truth.code, amount: truth.amount }, "date", "missing_field"],
  ])("fails %s as wrong_value", (_name, fields, field, reason) => {
    const v = schemaGuard(out(fields), truth);
    expect(v).toEqual({
      pass: false,
      failure_class: "wrong_value",
      findings: [{ path: `extracted_fields.${field}`, reason }],
    });
  });

  it("fails a field the truth does not state (a hallucination) as extra_field", () => {
    const { code: _c, ...noCode } = truth;
    const v = schemaGuard(out(truth), noCode);
    expect(v).toEqual({
      pass: false,
      failure_class: "wrong_value",
      findings: [{ path: "extracted_fields.code", reason: "extra_field" }],
    });
  });

  it.each([
    ["amount as a string", out({ ...truth, amount: "1234.50" }), "extracted_fields.amount", "wrong_type"],
    ["a code off its pattern", out({ ...truth, code: "inv-1234" }), "extracted_fields.code", "pattern_mismatch"],
    ["a non-ISO date", out({ ...truth, date: "03/05/2026" }), "extracted_fields.date", "pattern_mismatch"],
    ["an impossible date", out({ ...truth, date: "2026-02-30" }), "extracted_fields.date", "pattern_mismatch"],
    ["a key outside the schema", out({ ...truth, note: "x" }), "extracted_fields.note", "extra_field"],
    ["a top-level key outside the schema", { ...out(truth), admin: true }, "admin", "extra_field"],
    ["used_mem_ids not strings", out(truth, [1]), "used_mem_ids", "wrong_type"],
    ["used_mem_ids missing", { extracted_fields: truth }, "used_mem_ids", "missing_field"],
    ["extracted_fields missing", { used_mem_ids: [] }, "extracted_fields", "missing_field"],
    ["extracted_fields an array", out([] as never), "extracted_fields", "wrong_type"],
    ["a non-object answer", "Sure! Here is the JSON", "", "wrong_type"],
    ["null", null, "", "wrong_type"],
  ])("fails %s as schema_invalid", (_name, output, path, reason) => {
    const v = schemaGuard(output, truth);
    expect(v.pass).toBe(false);
    if (!v.pass) {
      expect(v.failure_class).toBe("schema_invalid");
      expect(v.findings).toContainEqual({ path, reason });
    }
  });
});

describe("JsonRestyler", () => {
  it("normalises money strings, recognised dates, fenced JSON and whitespace without adding fields", () => {
    const raw =
      '```json\n{"extracted_fields":{"title":" GPU hours ","amount":"$1,234.50","date":"March 5, 2026","code":null},"used_mem_ids":[]}\n```';
    expect(restyle(raw)).toEqual(out({ title: "GPU hours", amount: 1234.5, date: "2026-03-05" }));
  });

  it("leaves what it cannot normalise for SchemaGuard to reject", () => {
    const r = restyle(out({ amount: "about twelve", date: "soon", code: "inv-1" }));
    expect(r).toEqual(out({ amount: "about twelve", date: "soon", code: "inv-1" }));
    expect(restyle("not json")).toBe("not json");
  });
});

describe("runDag", () => {
  it("re-prompts once, stricter, after schema_invalid and passes when the strict answer is valid", async () => {
    const [noted] = hardCases();
    const r = await runDag(noted as GoldenCase, ruleExtractor);
    expect(r.status).toBe("pass");
    expect(r.attempts.map((a) => [a.strict, a.verdict.pass])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it("dead-letters schema_invalid when the stricter re-prompt is invalid too (no third attempt)", async () => {
    let calls = 0;
    const sloppy: Extractor = async () => {
      calls++;
      return { output: { extracted_fields: { amount: "n/a" }, used_mem_ids: [] }, tokens_in: 1, tokens_out: 1 };
    };
    const r = await runDag(goldenCases()[0] as GoldenCase, sloppy);
    expect(r).toMatchObject({ status: "dead_letter", failure_class: "schema_invalid" });
    expect(calls).toBe(2);
  });

  it("dead-letters wrong_value without a retry", async () => {
    const euro = hardCases()[1] as GoldenCase;
    const r = await runDag(euro, ruleExtractor);
    expect(r).toMatchObject({ status: "dead_letter", failure_class: "wrong_value" });
    expect(r.attempts).toHaveLength(1);
  });

  it("cites only memory ids from the provided retrieval", async () => {
    const c = goldenCases()[0] as GoldenCase;
    const mems = [
      { id: "mem_a", text: "invoice totals use commas as thousands separators" },
      { id: "mem_b", text: "tickets carry TKT codes" },
    ];
    const r = await runDag(c, ruleExtractor, mems);
    expect(r.status === "pass" && r.used_mem_ids).toEqual(["mem_a"]);
  });
});

describe("Verifier", () => {
  const c = goldenCases()[0] as GoldenCase;
  it("accepts an untouched record and a summary without the document text", () => {
    const rec = persistRecord(c.doc, c.truth);
    expect(verify(rec, c.truth)).toEqual({ ok: true });
    expect(rec.summary).not.toContain(c.doc.text.split("\n")[1]);
  });

  it("rejects a record whose fields changed after hashing, or that differ from the accepted ones", () => {
    const rec = persistRecord(c.doc, c.truth);
    expect(verify({ ...rec, fields: { ...rec.fields, title: "x" } }, c.truth)).toEqual({
      ok: false,
      reason: "digest_mismatch",
    });
    expect(verify(rec, { ...c.truth, title: "x" })).toEqual({ ok: false, reason: "fields_changed" });
  });
});
