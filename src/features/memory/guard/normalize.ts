// Readings of a value that a human or a model recovers at a glance: Unicode folded to a Latin/ASCII skeleton, escapes decoded, split keys and spelled-out e-mails put back together.

/** Format characters and fillers that render as nothing: zero-width space/joiners, BOM, soft hyphen, Hangul fillers… */
const INVISIBLE = /\p{Cf}|\u034f|[\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0]/gu;
/** Combining marks (accents, strike-throughs) and variation selectors (all \p{M}): decoration on a base letter. */
const MARKS = /\p{M}/gu;

/**
 * Cyrillic, Greek and Armenian letters whose UTS #39 confusable prototype is an ASCII letter or digit (confusables.txt,
 * restricted to sources that render like one Latin letter). ASCII itself is left alone: the full skeleton would also
 * turn `0` into `O` and `1` into `l`, which breaks every digit detector.
 */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: "a",
  в: "B",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ј: "j",
  һ: "h",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ү: "y",
  ɡ: "g",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  Х: "X",
  У: "Y",
  Ѕ: "S",
  І: "I",
  Ј: "J",
  Ԛ: "Q",
  Ԝ: "W",
  Ү: "Y",
  Ӏ: "I",
  З: "3",
  б: "6",
  // Greek
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  α: "a",
  ο: "o",
  ν: "v",
  ι: "i",
  ρ: "p",
  γ: "y",
  χ: "x",
  ϲ: "c",
  ϳ: "j",
  Ϲ: "C",
  Ϳ: "J",
  // Armenian
  օ: "o",
  ս: "u",
  ց: "g",
  հ: "h",
  ո: "n",
  զ: "q",
  Ս: "U",
  Օ: "O",
};
const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "gu");

/**
 * Unicode guarantees decimal digits (\p{Nd}) come in runs of ten, 0 to 9, so a digit's value is its distance from
 * the start of its run modulo 10 (adjacent runs exist, e.g. the mathematical digits).
 */
const digitValues = new Map<string, string>();
const ND = /\p{Nd}/u;
function asciiDigit(ch: string): string {
  let v = digitValues.get(ch);
  if (v === undefined) {
    let cp = ch.codePointAt(0) as number;
    let run = 0;
    while (ND.test(String.fromCodePoint(cp - 1))) {
      cp--;
      run++;
    }
    v = String(run % 10);
    digitValues.set(ch, v);
  }
  return v;
}
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;

/** Only code points below U+0080: none is invisible, a mark, a look-alike or a non-ASCII digit, and NFKD/NFKC keep each. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** NFKC, without invisible characters or combining marks, Cyrillic/Greek look-alikes and non-ASCII digits mapped to ASCII. */
export function normalizeUnicode(s: string): string {
  // most writes are plain ASCII, which every step below returns unchanged: six passes (two of them Unicode
  // normalisations) saved per reading of a value (a property test holds this equal to the full path)
  if (isAscii(s)) return s;
  return normalizeFully(s);
}

/** normalizeUnicode without its ASCII shortcut (exported for the property test that checks the shortcut). */
export function normalizeFully(s: string): string {
  return s
    .normalize("NFKD")
    .replace(INVISIBLE, "")
    .replace(MARKS, "")
    .replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] as string)
    .replace(NON_ASCII_DIGIT, asciiDigit)
    .normalize("NFKC");
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  commat: "@",
  period: ".",
  lowbar: "_",
  hyphen: "-",
  dash: "-",
  colon: ":",
  sol: "/",
  bsol: "\\",
  plus: "+",
  equals: "=",
  num: "#",
  excl: "!",
  percnt: "%",
  dollar: "$",
  ast: "*",
  lpar: "(",
  rpar: ")",
  comma: ",",
  semi: ";",
  quest: "?",
  verbar: "|",
};
const ESCAPE =
  /\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|&#[xX]([0-9a-fA-F]{1,6});?|&#(\d{1,7});?|&([a-zA-Z]{2,8});/g;

function fromCodePoint(cp: number, whole: string): string {
  return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : whole;
}

/** Decodes JSON/JS escapes (`\u0041`, `\u{41}`, `\x41`) and HTML character references (`&#65;`, `&#x41;`, `&commat;`). */
export function decodeEscapes(s: string): string {
  if (!s.includes("\\") && !s.includes("&")) return s;
  return s.replace(ESCAPE, (whole, braced, u4, x2, hex, dec, named) => {
    if (named !== undefined) return NAMED_ENTITIES[named.toLowerCase()] ?? whole;
    const cp = dec !== undefined ? Number(dec) : Number.parseInt(braced ?? u4 ?? x2 ?? hex, 16);
    return fromCodePoint(cp, whole);
  });
}

// ---- reassembly -------------------------------------------------------------------------------

const TLDS = "com|net|org|io|dev|app|co|ai|gov|edu|info|biz|me|us|uk|de|fr|nl|ch|es|it|ca|au|in|jp|se|no|cloud|mail";
/** "jane at example.com": " at " before a domain with a known top-level domain. */
const AT_BEFORE_DOMAIN = new RegExp(`(?<=[\\w.+-]) at (?=[\\w-]{1,63}(?:\\.[\\w-]{1,63}){0,8}\\.(?:${TLDS})\\b)`, "gi");
/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = [CONFUSABLE_RE, AT_BEFORE_DOMAIN];

const EMAIL_DEOBFUSCATION: [RegExp, string][] = [
  // "[at]", "(at)", "{at}", "<at>", "[@]" → "@"; the same for "dot"
  [/(?<!\s)\s{0,8}[[({<]\s{0,8}(?:at|@)\s{0,8}[\])}>]\s{0,8}/gi, "@"],
  [/(?<!\s)\s{0,8}[[({<]\s{0,8}(?:dot|\.)\s{0,8}[\])}>]\s{0,8}/gi, "."],
  // "jane dot doe" → "jane.doe" (only between word characters)
  [/(?<=\w) dot (?=\w)/gi, "."],
  // spaces around "@" between a local part and a domain
  [/(?<=[\w.+-])\s+@\s*(?=[\w-])|(?<=[\w.+-])@\s+(?=[\w-])/g, "@"],
  // "jane at example.com": only when a domain with a known top-level domain follows
  [AT_BEFORE_DOMAIN, "@"],
];

/** A chunk of a split key: a digit and a letter, mixed case after its first letter, `_ + /`, or ≥ 4 capitals. */
const keyish = (c: string) =>
  (/\d/.test(c) && /[A-Za-z]/.test(c)) ||
  (/[a-z]/.test(c) && /[A-Z]/.test(c.slice(1))) ||
  /[_+/]/.test(c) ||
  // capitals with or without digits (AKIA…); digits alone are numbers, which the digit detectors read with separators
  /^(?=.*[A-Z])[A-Z0-9]{4,}$/.test(c);
/** Runs of ≥ 3 short chunks: split by spaces (a chunk may hold a hyphen, as in `glpat-`) or by hyphens. */
const CHUNK_RUNS: [RegExp, RegExp][] = [
  [/(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=-]{1,12}(?:(?: - | )[A-Za-z0-9_+/=-]{1,12}){2,}/g, / - | /],
  [/(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=]{1,12}(?:-[A-Za-z0-9_+/=]{1,12}){2,}/g, /-/],
];
const MAX_STARTS = 8;
/** A joined key is cut after this many characters: longer than any key format, and a run of chunks may be megabytes. */
const MAX_JOINED_CHARS = 512;

/**
 * Joins keys split into groups by spaces or hyphens ("ghp_AbC1 dEf2 …", "AKIA-ABCD-…"): for each run of ≥ 3 short
 * chunks with ≥ 2 key-like ones, the chunks joined from each plausible start (a key-like chunk or the one before it),
 * so a prefix rule sees the key whole without the words before it glued on.
 */
function joinSplitKeys(s: string): string[] {
  const out: string[] = [];
  for (const [run, sep] of CHUNK_RUNS) {
    for (const m of s.matchAll(run)) {
      const chunks = m[0].split(sep);
      const flags = chunks.map(keyish);
      if (flags.filter(Boolean).length < 2) continue;
      let starts = 0;
      for (let i = 0; i < chunks.length - 2 && starts < MAX_STARTS; i++) {
        if (!flags[i] && !flags[i + 1]) continue;
        let joined = "";
        for (let k = i; k < chunks.length && joined.length < MAX_JOINED_CHARS; k++) joined += chunks[k];
        out.push(joined);
        starts++;
      }
    }
  }
  return out;
}

/** E-mails spelled out ("jane [at] example [dot] com") put back, and split keys joined (appended one per line). */
export function reassemble(s: string): string {
  let text = s;
  for (const [re, to] of EMAIL_DEOBFUSCATION) text = text.replace(re, to);
  const joined = joinSplitKeys(s);
  return joined.length ? `${text}\n${joined.join("\n")}` : text;
}
