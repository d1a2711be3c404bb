// The guard's shortcuts answer exactly as the full passes they skip: the ASCII path of normalizeUnicode, the digit-run
// prefilter of hasPhone, base64 runs decoded without an exception per invalid run, and the rules compiled once (the same verdict on every call, whatever came before).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benignCorpus, secretCorpus } from "../../../../test/fixtures/guard-corpus";
import { hasPhone, matchesPhonePatterns } from "./detectors";
import { decodeBase64Text, isUtf8 } from "./guard";
import { normalizeFully, normalizeUnicode } from "./normalize";
import { ALL_RULES } from "./rules";

/** Text rich in what phone patterns read: digits, their separators, "+", "00", keywords, letters, other scripts. */
const phoneish = fc
  .array(
    fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 9999 }).map(String), weight: 4 },
      { arbitrary: fc.constantFrom(" ", "-", ".", "/", " ", "+"), weight: 3 },
      fc.constantFrom(..."0123456789 +-./()()\n,:#=xX"),
      fc.constantFrom("00", "+1", "+44 ", "call me on ", "tel: ", "phone ", "number is ", "fax", "(0)", "555-"),
      fc.constantFrom("a", "Z", "_", "é", "٣", "０", "\u200b"),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

/** Bytes at every edge of UTF-8's lead and continuation ranges, mixed with ASCII. */
const EDGE_BYTES = [
  0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
  0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
];
const edgeBytes = fc.array(fc.constantFrom(...EDGE_BYTES), { maxLength: 12 }).map((b) => Uint8Array.from(b));
const strictOk = (bytes: Uint8Array) => {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** decodeBase64Text as it was before the lenient decoder: strict UTF-8, an exception for invalid bytes. */
function strictDecodeBase64Text(run: string): string | null {
  let b = run.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (b.length % 4 === 1) b = b.slice(0, -1);
  b += "=".repeat((4 - (b.length % 4)) % 4);
  let text: string;
  try {
    const bytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  if (text.length < 8) return null;
  let printable = 0;
  for (const ch of text) if (/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\r\t]/u.test(ch)) printable++;
  return printable / [...text].length >= 0.9 ? text : null;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
/** base64 runs of random bytes, of UTF-8 text (with U+FFFD and a BOM now and then), and words that only look like one */
const base64Run = fc.oneof(
  fc.uint8Array({ minLength: 6, maxLength: 60 }).map(b64),
  fc
    .tuple(
      fc.constantFrom("", "\ufeff", "\ufffd"),
      fc.oneof(
        fc.string({ minLength: 8, maxLength: 30 }),
        fc.string({ unit: "grapheme", minLength: 8, maxLength: 20 }),
      ),
    )
    .map(([pre, t]) => b64(new TextEncoder().encode(pre + t))),
  fc.stringMatching(/^[A-Za-z0-9+/_-]{12,40}$/),
  // printable ASCII with edge bytes inside: decodes to ≥ 90 % printable text only when the edge bytes are valid
  fc
    .tuple(fc.string({ minLength: 20, maxLength: 30 }), edgeBytes)
    .map(([t, e]) => b64(Uint8Array.from([...new TextEncoder().encode(t), ...e]))),
);

describe("guard shortcuts", () => {
  it("isUtf8 agrees with the strict WHATWG decoder on every byte sequence at the edges of UTF-8", () => {
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(edgeBytes, fc.uint8Array({ maxLength: 12 })), (bytes) => {
        const ok = strictOk(bytes);
        if (ok && bytes.some((b) => b >= 0x80)) valid++;
        expect(isUtf8(bytes)).toBe(ok);
      }),
      { numRuns: 20000 },
    );
    expect(valid).toBeGreaterThan(100);
    for (const ok of ["é", "€", "𝟘", "\ufeffA", "\ufffd"]) expect(isUtf8(new TextEncoder().encode(ok))).toBe(true);
    for (const bad of [
      [0xc0, 0xaf],
      [0xe0, 0x9f, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
    ])
      expect(isUtf8(Uint8Array.from(bad))).toBe(false);
  });

  it("decodeBase64Text equals the strict decoder on any run (valid text, invalid bytes, U+FFFD, BOM)", () => {
    let decoded = 0;
    fc.assert(
      fc.property(base64Run, (run) => {
        const want = strictDecodeBase64Text(run);
        if (want !== null) decoded++;
        expect(decodeBase64Text(run)).toBe(want);
      }),
      { numRuns: 3000 },
    );
    expect(decoded).toBeGreaterThan(100);
    // a run that decodes to text holding a genuine U+FFFD goes the strict way and is still read
    expect(decodeBase64Text(b64(new TextEncoder().encode("password \ufffd hunter22")))).toBe(
      "password \ufffd hunter22",
    );
  });

  it("normalizeUnicode equals the full normalisation on any string, ASCII or not", () => {
    const anyText = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
      fc.string({ unit: "grapheme-composite", maxLength: 20 }),
    );
    fc.assert(
      fc.property(anyText, (s) => {
        expect(normalizeUnicode(s)).toBe(normalizeFully(s));
      }),
      { numRuns: 400 },
    );
  });

  it("a pure ASCII string is returned as it is (no pass changes ASCII)", () => {
    const ascii = String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i));
    expect(normalizeFully(ascii)).toBe(ascii);
    expect(normalizeUnicode(ascii)).toBe(ascii);
  });

  it("hasPhone with its digit-run prefilter equals the regex scans alone", () => {
    let found = 0;
    fc.assert(
      fc.property(phoneish, (s) => {
        const full = matchesPhonePatterns(s);
        if (full) found++;
        expect(hasPhone(s)).toBe(full);
      }),
      { numRuns: 5000 },
    );
    // the stream must hold phone numbers, or the equality above would only compare "no" with "no"
    expect(found).toBeGreaterThan(50);
  });

  it("the prefilter's edge: the shortest accepted number (8 digits after +) is still found", () => {
    expect(hasPhone("reach me at +12345678 today")).toBe(true);
    expect(matchesPhonePatterns("reach me at +12345678 today")).toBe(true);
    // seven digits are not a number any pattern accepts, with or without the prefilter
    expect(hasPhone("reach me at +1234567 today")).toBe(false);
    expect(matchesPhonePatterns("reach me at +1234567 today")).toBe(false);
  });

  it("hasPhone equals the regex scans alone on every corpus value and its phone positives are found", () => {
    const values = [...secretCorpus().map((x) => x.text), ...benignCorpus(1000)];
    for (const v of values) expect(hasPhone(v)).toBe(matchesPhonePatterns(v));
    const phones = secretCorpus().filter((x) => x.family.includes("phone"));
    expect(phones.length).toBeGreaterThan(0);
    expect(phones.filter((x) => hasPhone(normalizeUnicode(x.text))).length).toBeGreaterThan(0);
  });

  it("every rule gives the same answer on a value whatever value it tested before (compiled regexes keep no state)", () => {
    const values = [...secretCorpus().map((x) => x.text), ...benignCorpus(200)];
    const first = values.map((v) => ALL_RULES.map((r) => r.test(v)));
    // reversed order: a rule whose state leaked from the previous value would now answer differently
    const again = [...values].reverse().map((v) => ALL_RULES.map((r) => r.test(v)));
    expect(again.reverse()).toEqual(first);
    expect(first.flat().some(Boolean)).toBe(true);
  });
});
