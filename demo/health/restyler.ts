// JsonRestyler: normalises an extractor's JSON towards the schema (trim, numeric strings, unambiguous dates); adds no facts.
import { parseAmount, parseDate } from "./extractor.ts";

/** Parses a string answer (LLMs may wrap JSON in a code fence); returns the value untouched when it is not a string. */
function parsed(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const t = raw
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/```$/, "")
    .trim();
  try {
    return JSON.parse(t);
  } catch {
    return raw;
  }
}

/**
 * Restyles without inventing: strings are trimmed, `amount` given as a money string becomes a number, `date` in a
 * recognised format becomes ISO, `code` keeps its value. Unknown keys and wrong shapes stay, so SchemaGuard sees them.
 */
export function restyle(raw: unknown): unknown {
  const value = parsed(raw);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const fields = out.extracted_fields;
  if (typeof fields === "object" && fields !== null && !Array.isArray(fields)) {
    const f: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
      if (v === null) continue; // an explicit null is an omission, not a value
      f[k] = typeof v === "string" ? v.trim() : v;
    }
    if (typeof f.amount === "string") f.amount = parseAmount(f.amount) ?? f.amount;
    if (typeof f.date === "string") f.date = parseDate(f.date) ?? f.date;
    out.extracted_fields = f;
  }
  return out;
}
