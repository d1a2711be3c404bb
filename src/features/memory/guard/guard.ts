// The memory write guard: normalises and decodes every field (Unicode tricks, escapes, URL encoding, base64, split keys,
// spelled-out e-mails), then runs the secretlint recommended preset plus Warden's own rules (secrets, PII, raw URLs).
// Verdicts carry rule ids, never values.
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommendedPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { AppFailure } from "../../../errors";
import { decodeEscapes, normalizeUnicode, reassemble } from "./normalize";
import { ALL_RULES, type Family } from "./rules";

export { normalizeUnicode };

export type GuardField = { path: string; value: string };
export type Variant = "raw" | "unicode" | "escaped" | "url_encoded" | "reassembled" | "base64";
export type GuardHit = { ruleId: string; family: Family; path: string; via: Variant };
export type GuardVerdict =
  | { ok: true }
  | { ok: false; code: "redaction_required" | "pii_detected"; ruleIds: string[]; paths: string[]; hits: GuardHit[] };

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;
const MAX_DEPTH = 2;

const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: "@secretlint/secretlint-rule-preset-recommend",
      rule: recommendedPreset,
      rules: [
        // AWS access key ids alone are refused too (the preset only reports them when asked)
        { id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } },
        // a writer must not be able to switch the guard off with a "secretlint-disable" comment
        { id: "@secretlint/secretlint-rule-filter-comments", disabled: true },
      ],
    },
  ],
};

function percentDecode(s: string): string {
  return s.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** one character a reader sees as text (compiled once: a literal inside the loop is a new RegExp per character) */
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\r\t]/u;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Whether `bytes` are well-formed UTF-8 as the WHATWG decoder reads them: no stray continuation bytes, no C0/C1 or
 * F5–FF leads, no overlong forms (E0 80–9F, F0 80–8F), no surrogates (ED A0–BF), nothing past U+10FFFF (F4 90+), no
 * truncated sequence.
 */
export function isUtf8(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return false;
    if (i + need >= bytes.length) return false; // truncated
    const second = bytes[i + 1] as number;
    if (second < lo || second > hi) return false;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] as number;
      if (c < 0x80 || c > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

/**
 * The bytes as UTF-8 text, null when they are not valid UTF-8. Most base64-looking runs in prose (`search-indexer`)
 * decode to invalid bytes; checking them in JavaScript first spares the fatal decoder's exception for each (and
 * its call) — a valid run is decoded exactly as before.
 */
function utf8Text(bytes: Uint8Array): string | null {
  if (!isUtf8(bytes)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Decodes a base64 / base64url run when the result is mostly printable text; null otherwise. */
export function decodeBase64Text(run: string): string | null {
  let b = run
    .replace(/(?<!=)=+$/, "")
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  if (b.length % 4 === 1) b = b.slice(0, -1);
  b += "=".repeat((4 - (b.length % 4)) % 4);
  let bytes: Uint8Array;
  try {
    const bin = atob(b);
    bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  const text = utf8Text(bytes);
  if (text === null || text.length < 8) return null;
  let printable = 0;
  for (const ch of text) if (PRINTABLE.test(ch)) printable++;
  return printable / [...text].length >= 0.9 ? text : null;
}

/**
 * Every reading of one value a human or a model could recover: as given; Unicode-normalised; with JSON/HTML escapes
 * decoded; URL-decoded; reassembled (split keys joined, spelled-out e-mails put back); base64-decoded (two levels).
 */
export function variantsOf(value: string): { via: Variant; text: string }[] {
  const out: { via: Variant; text: string }[] = [{ via: "raw", text: value }];
  const seen = new Set([value]);
  const push = (via: Variant, text: string) => {
    if (!seen.has(text)) {
      seen.add(text);
      out.push({ via, text });
    }
  };
  const expand = (text: string, depth: number, inherited?: Variant) => {
    const norm = normalizeUnicode(text);
    push(inherited ?? "unicode", norm);
    const unescaped = normalizeUnicode(decodeEscapes(norm));
    push(inherited ?? "escaped", unescaped);
    let decoded = unescaped;
    for (let i = 0; i < 3; i++) {
      const next = normalizeUnicode(percentDecode(decodeEscapes(decoded)));
      if (next === decoded) break;
      decoded = next;
      push(inherited ?? "url_encoded", decoded);
    }
    push(inherited ?? "reassembled", reassemble(decoded));
    if (depth >= MAX_DEPTH) return;
    for (const source of new Set([norm, decoded])) {
      for (const m of source.matchAll(BASE64_RUN)) {
        const plain = decodeBase64Text(m[0]);
        if (plain !== null) {
          push("base64", plain);
          expand(plain, depth + 1, "base64");
        }
      }
    }
  };
  expand(value, 0);
  return out;
}

/** Flattens metadata into guard fields: each value, and each `key=value` (so `{"password": "…"}` reads as an assignment). */
export function metadataFields(prefix: string, value: unknown, depth = 0): GuardField[] {
  if (depth > 8) return [{ path: prefix, value: JSON.stringify(value) ?? "" }];
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => metadataFields(`${prefix}[${i}]`, v, depth + 1));
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const path = `${prefix}.${k}`;
      const inner = metadataFields(path, v, depth + 1);
      const scalar = typeof v === "string" || typeof v === "number" || typeof v === "boolean";
      return [{ path: `${path}(key)`, value: k }, ...(scalar ? [{ path, value: `${k}=${String(v)}` }] : []), ...inner];
    });
  }
  return [{ path: prefix, value: String(value) }];
}

/**
 * secretlint's profiler records a performance mark at every step of every lint, keeps them for ever and, for each new
 * one, searches all of them: memory and time grow with every guard call in a long-lived isolate (1,000 scans in a
 * test file took minutes to drain after the last one). The guard never reads the profile, so marks are switched off.
 */
secretLintProfiler.mark = () => {};

const familyOfSecretlint = (): Family => "secret";

/** Maps "@secretlint/secretlint-rule-github" → "secretlint.github". */
const secretlintRuleId = (id: string) => `secretlint.${id.replace(/^@secretlint\/secretlint-rule-/, "")}`;

/**
 * The guard's work budget per scan. Every route caps its text well below the first (runs 256 KiB, memory 4 KiB of
 * metadata); the caps here hold whatever a caller forgets. Characters, not milliseconds: a Worker's clock stands still
 * while it computes, and a count is the same on every machine. Every rule is linear in its text (scripts/redos-check.mts).
 */
export const GUARD_MAX_INPUT_CHARS = 1024 * 1024;
/** All readings of all fields together (decoded base64 inside base64 multiplies them). */
export const GUARD_MAX_VARIANT_CHARS = 3 * GUARD_MAX_INPUT_CHARS;

/** Characters a scan handles between two yields to the event loop. */
const YIELD_EVERY_CHARS = 32 * 1024;

/**
 * Lets the isolate serve other requests while a long text is scanned: after every YIELD_EVERY_CHARS characters of
 * work, one macrotask turn (a Worker runs many requests on one thread; a 256 KiB scan is hundreds of milliseconds).
 */
function pacer() {
  let since = 0;
  return async (chars: number) => {
    since += chars;
    if (since < YIELD_EVERY_CHARS) return;
    since = 0;
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
}

type Reading = { field: GuardField; variants: { via: Variant; text: string }[] };

/** Every reading of every field, or the refusal when the text or its readings are over the guard's budget. */
async function readingsWithinBudget(fields: GuardField[], pace: (chars: number) => Promise<void>): Promise<Reading[]> {
  let input = 0;
  for (const field of fields) input += field.value.length;
  if (input > GUARD_MAX_INPUT_CHARS) {
    throw new AppFailure({
      code: "payload_too_large",
      limitBytes: GUARD_MAX_INPUT_CHARS,
      message: `text to check exceeds ${GUARD_MAX_INPUT_CHARS} characters; store a summary and reference the rest`,
    });
  }
  let read = 0;
  const readings: Reading[] = [];
  for (const field of fields) {
    const variants = variantsOf(field.value);
    for (const v of variants) read += v.text.length;
    if (read > GUARD_MAX_VARIANT_CHARS) {
      throw new AppFailure({
        code: "rejected",
        message: `text decodes to more than ${GUARD_MAX_VARIANT_CHARS} characters to check (nested encodings); send it decoded`,
        ruleIds: ["guard.budget_exceeded"],
      });
    }
    readings.push({ field, variants });
    await pace(field.value.length);
  }
  return readings;
}

/**
 * Scans fields; the verdict names rule ids and field paths only. Throws a 413 / 422 AppFailure when the text is over
 * the guard's budget, before any rule runs.
 */
export async function scanFields(fields: GuardField[]): Promise<GuardVerdict> {
  const pace = pacer();
  const readings = await readingsWithinBudget(fields, pace);
  const hits: GuardHit[] = [];
  // one secretlint pass per variant kind over all fields joined, mapped back to fields by offset
  const byVia = new Map<Variant, { path: string; start: number; end: number }[]>();
  const chunks = new Map<Variant, string[]>();
  const offsets = new Map<Variant, number>();
  for (const { field, variants } of readings) {
    for (const { via, text } of variants) {
      const long = text.length >= YIELD_EVERY_CHARS / 4;
      for (const rule of ALL_RULES) {
        if (rule.test(text)) hits.push({ ruleId: rule.id, family: rule.family, path: field.path, via });
        if (long) await pace(text.length);
      }
      if (!long) await pace(text.length);
      const start = offsets.get(via) ?? 0;
      const list = byVia.get(via) ?? [];
      list.push({ path: field.path, start, end: start + text.length });
      byVia.set(via, list);
      chunks.set(via, [...(chunks.get(via) ?? []), text]);
      offsets.set(via, start + text.length + 2);
    }
  }
  for (const [via, texts] of chunks) {
    const result = await lintSource({
      source: { filePath: "/memory.txt", content: texts.join("\n\n"), ext: ".txt", contentType: "text" },
      options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
    });
    for (const m of result.messages) {
      const at = m.range[0];
      const field = byVia.get(via)?.find((f) => at >= f.start && at <= f.end);
      hits.push({
        ruleId: secretlintRuleId(m.ruleId),
        family: familyOfSecretlint(),
        path: field?.path ?? "(unknown)",
        via,
      });
    }
  }
  if (hits.length === 0) return { ok: true };
  const ruleIds = new Set(hits.map((h) => h.ruleId));
  const plain = new Set(hits.filter((h) => h.via === "raw").map((h) => `${h.path}|${h.ruleId}`));
  for (const h of hits) if (h.via !== "raw" && !plain.has(`${h.path}|${h.ruleId}`)) ruleIds.add(`evasion.${h.via}`);
  const blocking = hits.some((h) => h.family !== "pii");
  return {
    ok: false,
    code: blocking ? "redaction_required" : "pii_detected",
    ruleIds: [...ruleIds].sort(),
    paths: [...new Set(hits.map((h) => h.path))].sort(),
    hits,
  };
}
