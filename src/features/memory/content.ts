// Content rules of a memory write (pure): summary size and raw-log refusal, near-duplicate vs contradiction, index keys.
import { toHex } from "../../lib/digest";

export const DEFAULT_SUMMARY_MAX_CHARS = 2000;
export const METADATA_MAX_CHARS = 4096;
export const NEAR_DUPLICATE_COSINE = 0.97;
export const CONTRADICTION_COSINE = 0.85;

const LOG_LINE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\]?|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\]?[\s:|-]|\d{2}:\d{2}:\d{2}[.,]\d{3}\s|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}\s)/;
/** Frames of Python, Java, Go and native traces; JavaScript frames are `isJsFrame` (a regex for them backtracks). */
const STACK_FRAME =
  /^\s*File ".*", line \d+|^\s+at [\w$.<>]+\([\w$.]+\.java:\d+\)|^\s*goroutine \d+ \[|^\s*#\d+\s+0x[0-9a-f]+/;
const JS_FRAME_START = /^\s+at\s/;

/**
 * A JavaScript frame: `  at fn (file:12:3)` or `  at file:12:3` — "at" after indentation, and `:line:column` (then
 * an optional ")") at the end. Read from the end by hand: `.*:\d+:\d+` as a regex retries every colon of the line.
 */
function isJsFrame(line: string): boolean {
  if (!JS_FRAME_START.test(line)) return false;
  let i = line.trimEnd().length - 1;
  if (line[i] === ")") i--;
  for (let group = 0; group < 2; group++) {
    const end = i;
    while (i >= 0 && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i--;
    if (i === end || line[i] !== ":") return false;
    i--;
  }
  return true;
}

/** Rule ids of size problems: over the limit, or a pasted log / stack trace instead of a summary. */
export function sizeProblems(text: string, maxChars = DEFAULT_SUMMARY_MAX_CHARS): string[] {
  const out: string[] = [];
  if (text.length > maxChars) out.push("size.summary_too_long");
  const lines = text.split(/\r?\n/);
  let logLines = 0;
  let frames = 0;
  for (const line of lines) {
    if (LOG_LINE.test(line)) logLines++;
    if (STACK_FRAME.test(line) || isJsFrame(line)) frames++;
  }
  if (logLines >= 3 || frames >= 2) out.push("size.raw_log");
  return out;
}

const NEGATION =
  /\b(?:not|no|never|none|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|won't|shouldn't|mustn't|without|neither|nor|disabled?|stop(?:ped)?)\b/g;

/** Parity of negations: two texts about the same thing with different parity likely contradict each other. */
export function polarity(text: string): 0 | 1 {
  const n = text.normalize("NFKC").toLowerCase().replace(/[’`]/g, "'").match(NEGATION)?.length ?? 0;
  return (n % 2) as 0 | 1;
}

export type Neighbour = { id: string; namespace: string; cls: string; text: string; similarity: number };
export type WriteOutcome =
  | { kind: "duplicate"; of: string }
  | { kind: "contradiction"; supersedes: string }
  | { kind: "new" };

/**
 * Same namespace only. cosine ≥ 0.97 with the same polarity → reinforce that memory; a close neighbour (≥ 0.85)
 * with the opposite polarity → keep both, the new one `supersedes` the old. Neighbours come best first.
 */
export function classifyWrite(text: string, namespace: string, neighbours: Neighbour[]): WriteOutcome {
  const p = polarity(text);
  for (const n of neighbours) {
    if (n.namespace !== namespace) continue;
    if (n.similarity >= CONTRADICTION_COSINE && polarity(n.text) !== p)
      return { kind: "contradiction", supersedes: n.id };
    if (n.similarity >= NEAR_DUPLICATE_COSINE) return { kind: "duplicate", of: n.id };
  }
  return { kind: "new" };
}

function fnv32(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** The scope as an indexable metadata value (Vectorize indexes the first 64 bytes of strings). */
export function scopeKey(scope: string): string {
  return new TextEncoder().encode(scope).length <= 64
    ? scope
    : `h:${fnv32(scope, 0x811c9dc5)}${fnv32(scope, 0x01000193)}`;
}

/** What makes two writes the same memory: namespace, class and the text up to case, width and spacing. */
export function canonicalContent(namespace: string, cls: string, text: string): string {
  return `${namespace}\n${cls}\n${text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()}`;
}

export async function contentHash(namespace: string, cls: string, text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(canonicalContent(namespace, cls, text)),
  );
  return toHex(digest);
}
