// Presidio-style recognizers: a linear-time pattern, an optional validator (check digits, structure) and context words that raise the score; refused at THRESHOLD.
import { JOINED_LINE } from "../normalize";
import type { Family, Rule } from "../rules";

/**
 * Score of one match (documented in docs/memory.md): a pattern that only looks like the identifier is worth WEAK, one
 * whose format alone is distinctive STRONG; a validator that accepts adds VALIDATED (one that rejects drops the match);
 * a context word in the window around the match adds CONTEXT. A match at or above THRESHOLD is refused, so: strong and
 * validated (0.8) is refused on its own; weak and validated (0.6) or strong without a validator (0.5) need a context
 * word; weak without a validator needs its context word as well (0.3 + 0.4 = 0.7).
 */
export const SCORE = { WEAK: 0.3, STRONG: 0.5, VALIDATED: 0.3, CONTEXT: 0.4 } as const;
export const THRESHOLD = 0.7;

export type Recognizer = {
  id: string;
  family: Family;
  /** global ("g"), linear-time: anchored by a lookbehind, every repetition bounded */
  pattern: RegExp;
  /** the identifier's own check (check digits, structure); a rejected match scores nothing */
  validate?: (m: RegExpExecArray) => boolean;
  /** whether this match's format is distinctive on its own (separators, letters in the right places) */
  strong?: boolean | ((m: RegExpExecArray, text: string) => boolean);
  /** context words: `new RegExp(contextSource([…]), "i")`, built beside the recognizer (listed for the ReDoS check) */
  context?: RegExp;
  /** characters before / after the match searched for a context word */
  window?: [number, number];
  /** a cheap test every text this recognizer can match passes (skips the pattern scan for the others) */
  requires?: RegExp;
  /** narrows the text searched for context words (after the field-key spellings are read as words) */
  narrow?: (around: string) => string;
};

const DEFAULT_WINDOW: [number, number] = [64, 24];

/**
 * The length of the shortest text a context word's pattern matches, read by hand (no regex: the ReDoS check covers
 * every regex): an optional group `(?:…)?` or an optional atom `x?` counts nothing, a class `[…]`, an escape `\x` or
 * a group counts one, any other character one.
 */
export function shortestMatch(source: string): number {
  let n = 0;
  let i = 0;
  while (i < source.length) {
    let end = i + 1;
    if (source[i] === "\\") end = i + 2;
    else if (source[i] === "[") end = source.indexOf("]", i) + 1;
    else if (source[i] === "(") end = source.indexOf(")", i) + 1;
    if (end <= i) end = source.length;
    if (source[end] === "?") end++;
    else n++;
    i = end;
  }
  return n;
}

/**
 * The context words as one regex, case-insensitive. Short words (< 6 characters of pattern: "ssn", "pan", "dob") must
 * stand alone (not glued to an ASCII letter or digit); longer ones also count inside an identifier
 * ("steuerlicheidentifikationsnummer", "numeroDePasseport").
 */
export function contextSource(words: string[]): string {
  const short = words.filter((w) => shortestMatch(w) < 6);
  const long = words.filter((w) => shortestMatch(w) >= 6);
  const alternatives = [
    ...(short.length ? [`(?<![A-Za-z0-9])(?:${short.join("|")})(?![A-Za-z0-9-])`] : []),
    // "numerodassurancesociale", "driverslicense": a key may drop the spaces of a long context word
    ...(long.length ? [`(?:${long.map((w) => w.replace(/ /g, " ?")).join("|")})`] : []),
  ];
  return alternatives.join("|");
}

/** The regexes of some recognizers (patterns and context words), for the files' DYNAMIC_PATTERNS. */
export const patternsOf = (recs: Recognizer[]): RegExp[] =>
  recs.flatMap((r) => (r.context ? [r.pattern, r.context] : [r.pattern]));

/** Field-key spellings read as words: "ni_number" → "ni number", "driverLicense" → "driver License". */
const asWords = (s: string) => s.replace(/([a-z])(?=[A-Z])/g, "$1 ").replace(/[_-]/g, " ");

/** The text around a match, without the match, as words. */
function contextAround(text: string, m: RegExpExecArray, [before, after]: [number, number]): string {
  const end = m.index + m[0].length;
  const head = text.slice(Math.max(0, m.index - before), m.index);
  const joined = head.lastIndexOf(JOINED_LINE);
  const around = `${joined === -1 ? head : head.slice(joined + 1)} ${text.slice(end, end + after)}`;
  return asWords(around);
}

/** The last text read as words: every rule of a scan reads the same text in turn. */
let lastText = "";
let lastWords = "";
function wordsOf(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastWords = asWords(text);
  }
  return lastWords;
}

/** The score of one match of `rec` in `text` (0 when its validator rejects it). */
export function scoreMatch(rec: Recognizer, m: RegExpExecArray, text: string, context: RegExp | null): number {
  if (rec.validate && !rec.validate(m)) return 0;
  const strong = typeof rec.strong === "function" ? rec.strong(m, text) : rec.strong === true;
  let score = (strong ? SCORE.STRONG : SCORE.WEAK) + (rec.validate ? SCORE.VALIDATED : 0);
  if (score < THRESHOLD && context) {
    const around = contextAround(text, m, rec.window ?? DEFAULT_WINDOW);
    if (context.test(rec.narrow ? rec.narrow(around) : around)) score += SCORE.CONTEXT;
  }
  return score;
}

/** A guard rule that refuses when any match of the recognizer scores at or above THRESHOLD. */
export function recognizerRule(rec: Recognizer): Rule {
  // test() is synchronous: one global instance per recognizer, lastIndex reset per call
  if (!rec.pattern.flags.includes("g")) throw new Error(`${rec.id}: a recognizer's pattern must be global`);
  const g = rec.pattern;
  const context = rec.context ?? null;
  // a recognizer that cannot reach the threshold without its context word skips texts that hold none (most texts)
  const bestWithoutContext = (rec.strong ? SCORE.STRONG : SCORE.WEAK) + (rec.validate ? SCORE.VALIDATED : 0);
  const needsContext = context !== null && bestWithoutContext < THRESHOLD;
  return {
    id: rec.id,
    family: rec.family,
    test: (text) => {
      if (rec.requires && !rec.requires.test(text)) return false;
      if (needsContext && !context.test(wordsOf(text))) return false;
      g.lastIndex = 0;
      for (let m = g.exec(text); m; m = g.exec(text)) {
        if (scoreMatch(rec, m, text, context) >= THRESHOLD) return true;
        if (m[0].length === 0) g.lastIndex++;
      }
      return false;
    },
  };
}
