// The wdn_live_ key format: shape, CRC32 checksum (known vector, base62 width), and every one-character typo refused offline.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base62,
  checksumOf,
  crc32,
  generateApiKey,
  KEY_IN_TEXT,
  KEY_PATTERN,
  KEY_PREFIX,
  LEGACY_KEY_PATTERN,
  parseApiKey,
} from "./key-format";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("key format", () => {
  it("CRC32 is the IEEE one (check value of '123456789')", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
  });

  it("base62 writes any 32-bit value in 6 characters that read back to it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        const s = base62(n, 6);
        expect(s).toHaveLength(6);
        const back = [...s].reduce((acc, ch) => acc * 62 + ALPHABET.indexOf(ch), 0);
        expect(back).toBe(n);
      }),
    );
  });

  it("mints wdn_live_ keys of 70 characters whose checksum is the CRC32 of the rest", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { prefix, key } = generateApiKey();
      expect(key).toMatch(KEY_PATTERN);
      expect(key).toHaveLength(70);
      expect(key.startsWith(`${KEY_PREFIX}${prefix}`)).toBe(true);
      expect(key.slice(-6)).toBe(checksumOf(key.slice(0, -6)));
      expect(parseApiKey(key)).toEqual({ ok: true, prefix });
      seen.add(key);
    }
    expect(seen.size).toBe(200);
  });

  it("refuses every one-character change of a key offline (checksum mismatch or malformed)", () => {
    const { key } = generateApiKey();
    fc.assert(
      fc.property(
        fc.integer({ min: KEY_PREFIX.length, max: key.length - 1 }),
        fc.constantFrom(...ALPHABET),
        (i, ch) => {
          fc.pre(key[i] !== ch);
          const typo = `${key.slice(0, i)}${ch}${key.slice(i + 1)}`;
          const r = parseApiKey(typo);
          expect(r.ok).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("names a checksum mismatch apart from a malformed key", () => {
    const { key } = generateApiKey();
    const last = key.at(-1) === "0" ? "1" : "0";
    expect(parseApiKey(`${key.slice(0, -1)}${last}`)).toEqual({ ok: false, error: "API key checksum mismatch" });
    expect(parseApiKey(key.slice(0, -1))).toMatchObject({ ok: false, error: expect.stringContaining("malformed") });
    expect(parseApiKey("")).toMatchObject({ ok: false });
    expect(parseApiKey(`wdn_prod_${key.slice(9)}`)).toMatchObject({ ok: false });
  });

  it("still parses legacy wk_ keys by their lookup prefix", () => {
    const legacy = `wk_0123456789ab_${"A".repeat(43)}`;
    expect(legacy).toMatch(LEGACY_KEY_PATTERN);
    expect(parseApiKey(legacy)).toEqual({ ok: true, prefix: "0123456789ab" });
  });

  it("finds keys in free text for scanners", () => {
    const { key } = generateApiKey();
    const text = `export WARDEN_KEY=${key}\nnothing here wdn_live_short`;
    expect(text.match(KEY_IN_TEXT)).toEqual([key]);
  });
});
