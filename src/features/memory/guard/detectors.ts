// Checksum- and shape-validated detectors of the write guard: card numbers (Luhn), IBANs (mod 97), SSNs, phone numbers,
// unarmored private-key bodies (DER/OpenSSH headers) and secrets announced after a keyword (gitleaks-style entropy rule).
import { getCountrySpecifications, isValidIBAN } from "ibantools";

// ---- cards ------------------------------------------------------------------------------------

export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card brands' issuer prefixes and lengths (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
function cardBrand(d: string): boolean {
  const n = d.length;
  if (/^4/.test(d)) return n === 13 || n === 16 || n === 19;
  if (/^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/.test(d)) return n === 16;
  if (/^3[47]/.test(d)) return n === 15;
  if (/^(?:6011|65|64[4-9])/.test(d)) return n >= 16 && n <= 19;
  if (/^35(?:2[89]|[3-8]\d)/.test(d)) return n >= 16 && n <= 19;
  if (/^3(?:0[0-5]|[689])/.test(d)) return n >= 14 && n <= 19;
  if (/^62/.test(d)) return n >= 16 && n <= 19;
  if (/^(?:50|5[6-9]|6\d)/.test(d)) return n >= 13 && n <= 19;
  return false;
}

/** How cards are printed: unbroken, 4-4-4-4(-1..3), or 4-6-4 / 4-6-5 (Diners, Amex). */
function cardGrouping(groups: string[]): boolean {
  if (groups.length === 1) return true;
  const lens = groups.map((g) => g.length);
  if (lens.length === 3 && lens[0] === 4 && lens[1] === 6 && (lens[2] === 4 || lens[2] === 5)) return true;
  const last = lens[lens.length - 1] as number;
  return lens.slice(0, -1).every((l) => l === 4) && last >= 1 && last <= 4;
}

/** Digit groups joined by one separator character ( . / _ - or space), as one candidate run. */
const DIGIT_RUN = /(?<![\w.,/-])\d+(?:[ ./_-]\d+)*(?![\w])/g;

/** Whether groups i..j-1 may all stand before a last group j in a card grouping that cardGrouping accepts. */
function groupMayContinue(groups: string[], i: number, j: number): boolean {
  const previous = (groups[j - 1] as string).length;
  if (previous === 4) return j - 1 === i || (groups[i] as string).length === 4;
  return previous === 6 && j === i + 2 && (groups[i] as string).length === 4;
}

/** A Luhn-valid number of a card brand's length, unbroken or grouped like a card with any single separator class. */
export function hasCardNumber(text: string): boolean {
  for (const m of text.matchAll(DIGIT_RUN)) {
    const run = m[0];
    if (run.length < 13) continue;
    const groups = run.split(/[ ./_-]/);
    const seps = run.replace(/\d/g, "");
    for (let i = 0; i < groups.length; i++) {
      let digits = "";
      for (let j = i; j < groups.length && digits.length < 19; j++) {
        // every group but the last is 4 digits long (or 4-6-x): stop as soon as one is not, nothing longer can pass
        if (j > i && !groupMayContinue(groups, i, j)) break;
        digits += groups[j];
        if (digits.length < 13 || digits.length > 19) continue;
        // one separator class within the candidate
        const inner = seps.slice(i, j);
        if (inner.length > 0 && new Set(inner).size > 1) continue;
        if (cardGrouping(groups.slice(i, j + 1)) && cardBrand(digits) && luhn(digits)) return true;
      }
    }
  }
  return false;
}

// ---- SSN --------------------------------------------------------------------------------------

/** SSA rules: area not 000, 666 or 9xx; group not 00; serial not 0000. */
const validSsn = (area: string, group: string, serial: string) =>
  area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000";

const SSN_SEPARATED = /(?<![\w.,/-])(\d{3})([- ./])(\d{2})\2(\d{4})(?![\w]|[.,/-]\d)/g;
const SSN_AFTER_KEYWORD =
  /\b(?:ssn|social security(?: number| no\.?| #)?|soc\.? ?sec\.?(?: no\.?)?|tax ?id|taxpayer id|tin)\b[\s:#.=-]{0,4}(\d{3})[- ./]?(\d{2})[- ./]?(\d{4})(?!\d)/gi;

/** An SSN written with one separator (- . / space), or with none right after "SSN" / "social security number". */
export function hasSsn(text: string): boolean {
  for (const m of text.matchAll(SSN_SEPARATED))
    if (validSsn(m[1] as string, m[3] as string, m[4] as string)) return true;
  for (const m of text.matchAll(SSN_AFTER_KEYWORD))
    if (validSsn(m[1] as string, m[2] as string, m[3] as string)) return true;
  return false;
}

// ---- IBAN -------------------------------------------------------------------------------------

const IBAN_LENGTHS = new Map(
  Object.entries(getCountrySpecifications())
    .filter(([, spec]) => spec.chars)
    .map(([cc, spec]) => [cc, spec.chars as number]),
);
const IBAN_CANDIDATE = /(?<![A-Za-z0-9])([A-Za-z]{2})(\d{2})((?: ?[A-Za-z0-9]){10,32})/g;

/** An IBAN of a known country, compact or in groups, of that country's length, BBAN format and mod-97 checksum. */
export function hasIban(text: string): boolean {
  for (const m of text.matchAll(IBAN_CANDIDATE)) {
    const cc = (m[1] as string).toUpperCase();
    const length = IBAN_LENGTHS.get(cc);
    if (length === undefined) continue;
    const compact = `${cc}${m[2]}${(m[3] as string).replace(/ /g, "").toUpperCase()}`;
    if (compact.length >= length && isValidIBAN(compact.slice(0, length))) return true;
  }
  return false;
}

// ---- phone numbers ----------------------------------------------------------------------------

const digitCount = (s: string) => s.replace(/\D/g, "").length;
/** International: "+" or "00", a country code, then groups (spaces, dots, hyphens, slashes, an optional "(0)"); not inside an id. */
const PHONE_INTERNATIONAL = /(?<![\w+./-])(\+|00)[1-9](?:[ ./-]?(?:\(\d{1,4}\)|\d)){7,17}(?![\w])/g;
/** National forms after a word that announces a number. */
const PHONE_AFTER_KEYWORD =
  /\b(?:phone|tel(?:ephone)?|mobile|cell(?:phone)?|sms|whatsapp|fax|call(?:ed)?(?: (?:me|him|her|them|us))?(?: on| at)?|text (?:me|him|her|them|us) (?:on|at)|number is|dial)\b[\s:#.=-]{0,4}(\(?\d[\d ()./-]{6,18}\d)(?![\w])/gi;
/** Typical national groupings without context: NANP 3-3-4 / (3) 3-4, UK 0xxx xxx(x) xxxx, French 0x xx xx xx xx. */
const PHONE_GROUPED = [
  /(?<![\w.+/-])(?:\(\d{3}\) ?\d{3}[ .-]\d{4}|\d{3}([ .-])\d{3}\1\d{4})(?![\w-]|[.:/]\d)/g,
  /(?<![\w.+/-])0\d{2,4} \d{3,4} \d{3,4}(?![\w-]|[.:/]\d)/g,
  /(?<![\w.+/-])0[1-9](?:([ .])\d{2})(?:\1\d{2}){3}(?![\w-]|[.:/]\d)/g,
];

/** Characters a phone match is made of: digits, "+", the separators " ./-" and parentheses. */
const isPhoneChar = (c: number) =>
  (c >= 48 && c <= 57) || c === 32 || c === 43 || c === 45 || c === 46 || c === 47 || c === 40 || c === 41;

/**
 * Whether some run of phone characters holds ≥ 8 digits. Every number hasPhone accepts lies inside one such run (its
 * match, or its captured number after a keyword, is made of those characters only) and has ≥ 8 digits, so a text
 * without such a run cannot be a phone number: one pass over the characters instead of five regex scans.
 */
function hasDigitRun(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isPhoneChar(c)) digits = 0;
    else if (c >= 48 && c <= 57 && ++digits >= 8) return true;
  }
  return false;
}

/** A phone number, international or national (grouped, or after a word like "call"): 8–15 digits. */
export function hasPhone(text: string): boolean {
  return hasDigitRun(text) && matchesPhonePatterns(text);
}

/** hasPhone's regex scans alone, without the digit-run prefilter (exported for the property test of the prefilter). */
export function matchesPhonePatterns(text: string): boolean {
  for (const m of text.matchAll(PHONE_INTERNATIONAL)) {
    // "00" instead of "+" only with grouping: an unbroken 00… run is more often an id than a number to dial
    if (m[1] === "00" && !/[ ./-]/.test(m[0])) continue;
    const n = digitCount(m[0]) - (m[1] === "00" ? 2 : 0);
    if (n >= 8 && n <= 15) return true;
  }
  for (const m of text.matchAll(PHONE_AFTER_KEYWORD)) {
    const n = digitCount(m[1] as string);
    if (n >= 9 && n <= 15) return true;
  }
  for (const re of PHONE_GROUPED)
    for (const m of text.matchAll(re)) {
      const n = digitCount(m[0]);
      if (n >= 10 && n <= 11) return true;
    }
  return false;
}

// ---- private-key bodies -----------------------------------------------------------------------

/** Base64 runs (line breaks allowed) that open like a DER SEQUENCE or the OpenSSH private-key magic. */
const KEY_BODY = /(?<![A-Za-z0-9+/])(?:M[A-Za-z0-9+/]{3}|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]*(?:\r?\n[A-Za-z0-9+/]+)*=*/g;

function bytesOf(b64: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * A private key without its armor lines: PKCS#1, PKCS#8 and SEC1 keys are a DER SEQUENCE whose first element is the
 * version INTEGER 0 or 1 (certificates and public keys open with another SEQUENCE), OpenSSH keys start with
 * "openssh-key-v1". At least 60 base64 characters, the size of the smallest (Ed25519) key.
 */
export function hasPrivateKeyBody(text: string): boolean {
  for (const m of text.matchAll(KEY_BODY)) {
    const body = m[0].replace(/\s/g, "");
    if (body.length < 60) continue;
    if (body.startsWith("b3BlbnNzaC1rZXktdjE")) return true;
    const b = bytesOf(body.slice(0, 24));
    if (b?.[0] !== 0x30) continue;
    const len = b[1] as number;
    const header = len < 0x80 ? 2 : len === 0x81 ? 3 : len === 0x82 ? 4 : 0;
    if (header && b[header] === 0x02 && b[header + 1] === 0x01 && (b[header + 2] as number) <= 1) return true;
  }
  return false;
}

// ---- secrets announced after a keyword ----------------------------------------------------------

/** Values that stand for a secret without being one (redacted placeholders, env references, states). */
export const PLACEHOLDER =
  /^(?:\*+|x{3,}|•+|\.{3,}|<[^>]*>|\[[^\]]*\]|\{\{?[^}]*\}\}?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|redacted|masked|hidden|removed|none|null|nil|empty|unset|undefined|true|false|yes|no|required|missing|invalid|expired|rotated|revoked|omitted|n\/a)$/i;

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Whether a value announced as a secret looks like one, in the spirit of gitleaks' generic rule: not a placeholder,
 * path, URL, number, version or plain word; mixed character classes or long and random (≥ 3 bits per character).
 */
function secretLike(raw: string): boolean {
  const v = raw.replace(/(?<![.,;:!?)\]])[.,;:!?)\]]+$/, (tail) =>
    /[A-Za-z0-9]/.test(raw.slice(0, -tail.length)) ? "" : tail,
  );
  if (v.length < 6 || PLACEHOLDER.test(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes("://")) return false;
  if (/^[\d.,:%/+-]+(?:ms|s|m|h|d|kb|mb|gb|%)?$/i.test(v)) return false; // numbers, durations, versions, dates
  if (/^v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/i.test(v)) return false;
  if (/^[A-Za-z][a-z]*(?:[-'][a-z]+)*$/.test(v)) return false; // a plain word
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
  if (classes >= 2 && entropy(v) >= 2.3) return true;
  return v.length >= 16 && entropy(v) >= 3;
}

const KEYWORD =
  "(?:passwords?|passwd|passphrase|pass|pwd|pw|secret(?:[_ -]?(?:access[_ -]?)?key)?|client[_ -]?secret|tokens?|api[_ -]?key|apikey|access[_ -]?key|private[_ -]?key|unseal[_ -]?key|signing[_ -]?key|aws_secret_access_key|credentials?)";
/**
 * KEYWORD, up to two words ("admin password", "unseal key shares"), an operator (is, was, :, =, =>, ->, :=) and a value
 * on the same line. The keyword must not follow ":" or "/" (an ARN's or path's segment, e.g. `…:secret:prod/db`).
 */
const ANNOUNCED = new RegExp(
  `(?<![A-Za-z0-9:/])${KEYWORD}(?:[ \\t]{1,8}[A-Za-z]{1,40}){0,2}?["']?[ \\t]{0,8}(?:=>|->|:=|==|=|:|\\bis\\b|\\bwas\\b|\\bare\\b)[ \\t]{0,8}:?[ \\t]{0,8}["'\`]?([^\\s"'\`,;]{4,200})`,
  "gi",
);

/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = [ANNOUNCED];

/** A password, key or token announced in plain language or as an assignment, with a value that looks secret. */
export function hasAnnouncedSecret(text: string): boolean {
  for (const m of text.matchAll(ANNOUNCED)) if (secretLike(m[1] as string)) return true;
  return false;
}
