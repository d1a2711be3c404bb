// The deterministic rule-based Extractor: labelled lines → ExtractorLLM output v1; ignores any instruction in the text.
import { CODE_PATTERN, type Doc, type ExtractorOutput, type Field, type Truth } from "./schema.ts";

export type MemoryHint = { id: string; text: string };
export type ExtractOptions = { strict?: boolean; memories?: readonly MemoryHint[] };
/** Any extractor (rule-based here, OpenAI-compatible in demo/openai.ts): raw output, not yet restyled or checked. */
export type Extractor = (
  doc: Doc,
  options: ExtractOptions,
) => Promise<{ output: unknown; tokens_in: number; tokens_out: number }>;

const LABELS: Record<string, Field> = {
  title: "title",
  subject: "title",
  re: "title",
  code: "code",
  reference: "code",
  "ref no.": "code",
  "ref no": "code",
  amount: "amount",
  total: "amount",
  "total due": "amount",
  date: "date",
  issued: "date",
  dated: "date",
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const LINE = /^\s*([A-Za-z][A-Za-z. ]*?)\s*(?:::|:)\s*(.+?)\s*$/;

/** Parses ISO, "March 5, 2026" and "5 Mar 2026" into YYYY-MM-DD; anything else is not a date. */
export function parseDate(text: string): string | undefined {
  const t = text.trim();
  const pad = (n: number) => String(n).padStart(2, "0");
  const iso8601 = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const monthFirst = /^([A-Za-z]+)\.? (\d{1,2}), (\d{4})$/.exec(t);
  const dayFirst = /^(\d{1,2}) ([A-Za-z]+)\.? (\d{4})$/.exec(t);
  const month = (name: string | undefined) => MONTHS.indexOf((name ?? "").slice(0, 3).toLowerCase()) + 1;
  let y: number;
  let m: number;
  let d: number;
  if (iso8601) [y, m, d] = [Number(iso8601[1]), Number(iso8601[2]), Number(iso8601[3])];
  else if (monthFirst) [y, m, d] = [Number(monthFirst[3]), month(monthFirst[1]), Number(monthFirst[2])];
  else if (dayFirst) [y, m, d] = [Number(dayFirst[3]), month(dayFirst[2]), Number(dayFirst[1])];
  else return undefined;
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const iso = `${y}-${pad(m)}-${pad(d)}`;
  const check = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(check.getTime()) && check.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** Parses "1234.50", "$1,234.50", "USD 1,234.50"; commas are thousands separators (so "1.234,50" reads wrong). */
export function parseAmount(text: string): number | undefined {
  const t = text
    .trim()
    .replace(/^(USD|EUR|\$|€)\s*/i, "")
    .replaceAll(",", "");
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined;
}

/** Extracts the first valid value per field from `Label: value` lines; lines with other labels are ignored. */
export function extractFields(text: string, strict = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const label = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    const field = LABELS[label];
    if (field === undefined) {
      // The lenient first pass keeps a free-text note (not in the schema); the stricter re-prompt drops it.
      if (!strict && label === "note" && out.note === undefined) out.note = value;
      continue;
    }
    if (out[field] !== undefined) continue;
    if (field === "title") out.title = value;
    else if (field === "code") {
      if (CODE_PATTERN.test(value)) out.code = value;
    } else if (field === "amount") {
      const a = parseAmount(value);
      if (a !== undefined) out.amount = a;
    } else {
      const d = parseDate(value);
      if (d !== undefined) out.date = d;
    }
  }
  return out;
}

/** A memory is cited when it names the document's kind: only ids from the provided retrieval, never invented. */
export function citedMemories(doc: Doc, memories: readonly MemoryHint[]): string[] {
  return memories.filter((m) => m.text.toLowerCase().includes(doc.kind)).map((m) => m.id);
}

export const ruleExtractor: Extractor = async (doc, options) => {
  const output = {
    extracted_fields: extractFields(doc.text, options.strict ?? false) as Truth,
    used_mem_ids: citedMemories(doc, options.memories ?? []),
  } satisfies ExtractorOutput;
  // Token counts of a CPU extractor: the text it read and the JSON it wrote, at ~4 characters a token.
  return {
    output,
    tokens_in: Math.ceil(doc.text.length / 4),
    tokens_out: Math.ceil(JSON.stringify(output).length / 4),
  };
};
