// The write guard on a generated corpus: every secret/PII/URL sample (and its evasion variants) refused, benign text passes.
import { describe, expect, it } from "vitest";
import { benignCorpus, evasions, type Sample, secretCorpus } from "../../../../test/fixtures/guard-corpus";
import { decodeBase64Text, type GuardField, metadataFields, normalizeUnicode, scanFields } from "./guard";

const fieldsOf = (s: { text: string; tags?: string[]; metadata?: Record<string, unknown> }): GuardField[] => [
  { path: "text", value: s.text },
  ...(s.tags ?? []).map((t, i) => ({ path: `tags[${i}]`, value: t })),
  ...metadataFields("metadata", s.metadata ?? {}),
];

describe("write guard corpus", () => {
  const secrets = secretCorpus();
  const benign = benignCorpus(1000);

  it("refuses 100% of secret, PII and URL samples (with evasion variants) with the right code", async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(200);
    const missed: Sample[] = [];
    const wrongCode: string[] = [];
    const byKind = new Map<string, { n: number; caught: number }>();
    for (const s of secrets) {
      const v = await scanFields(fieldsOf(s));
      const kind = s.family.split(/[+@]/)[0] as string;
      const k = byKind.get(kind) ?? { n: 0, caught: 0 };
      k.n++;
      if (v.ok) missed.push(s);
      else {
        k.caught++;
        if (v.code !== s.expect) wrongCode.push(`${s.family}: ${v.code} (${v.ruleIds.join(",")})`);
      }
      byKind.set(kind, k);
    }
    const rate = (secrets.length - missed.length) / secrets.length;
    console.log(`guard detection: ${(rate * 100).toFixed(2)}% of ${secrets.length} samples refused, by category:`);
    console.log([...byKind].map(([k, v]) => `  ${k.padEnd(36)} ${v.caught}/${v.n}`).join("\n"));
    expect(missed.map((m) => m.family)).toEqual([]);
    expect(wrongCode).toEqual([]);
    expect(rate).toBe(1);
  });

  it("lets ≥ 99% of benign incident summaries through (hashes, UUIDs, ARNs, images, log lines, order numbers, dates)", async () => {
    // the benign set is at least as large as the positive one, so the rate below means something
    expect(benign.length).toBeGreaterThanOrEqual(secrets.length);
    const refused: string[] = [];
    for (const text of benign) {
      const v = await scanFields([{ path: "text", value: text }]);
      if (!v.ok) refused.push(`${v.ruleIds.join(",")} ← ${text}`);
    }
    const fpr = refused.length / benign.length;
    console.log(`guard false positives: ${(fpr * 100).toFixed(2)}% of ${benign.length} benign summaries refused`);
    if (refused.length) console.log(refused.slice(0, 10).join("\n"));
    expect(fpr).toBeLessThanOrEqual(0.01);
  });

  it("names families and evasions by rule id and never echoes the value", async () => {
    const token = `ghp_${"A1b2C3d4".repeat(4)}abcd`;
    const v = await scanFields([{ path: "text", value: `leaked ${evasions.base64!(token)}` }]);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.ruleIds).toEqual(expect.arrayContaining(["secret.github_token", "evasion.base64"]));
    expect(JSON.stringify({ ruleIds: v.ruleIds, paths: v.paths, code: v.code })).not.toContain(token.slice(4, 20));
  });

  it("reports PII-only content as pii_detected and secrets or URLs as redaction_required", async () => {
    const pii = await scanFields([{ path: "text", value: "Customer jane.doe@example.com called about the outage" }]);
    expect(pii).toMatchObject({ ok: false, code: "pii_detected", ruleIds: ["pii.email"] });
    const both = await scanFields([{ path: "text", value: "jane.doe@example.com posted https://status.acme.com/x" }]);
    expect(both).toMatchObject({ ok: false, code: "redaction_required" });
  });

  it("cannot be switched off with a secretlint-disable comment", async () => {
    const v = await scanFields([
      { path: "text", value: `xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx // secretlint-disable-line` },
    ]);
    expect(v.ok).toBe(false);
  });
});

describe("guard helpers", () => {
  it("strips zero-width characters and folds full-width forms", () => {
    expect(normalizeUnicode("g\u200bh\u2060p\ufeff_ＡＢＣ")).toBe("ghp_ABC");
  });
  it("decodes base64 only when the result is text", () => {
    expect(decodeBase64Text(btoa("hello secret world"))).toBe("hello secret world");
    expect(decodeBase64Text("3f2a9c1e4b5d6a7b8c9d0e1f2a3b4c5d6e7f8a9b")).toBeNull();
  });
  it("reads metadata keys, values and key=value pairs", () => {
    expect(metadataFields("metadata", { a: { password: "x1" }, n: [4] }).map((f) => f.value)).toEqual(
      expect.arrayContaining(["password", "password=x1", "4"]),
    );
  });
});
