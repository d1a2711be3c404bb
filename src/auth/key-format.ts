// The API key format secret scanners recognise: `wdn_live_` + lookup id + base62 secret + CRC32 checksum (pure).
import { toHex } from "../lib/digest.ts";

/**
 * `wdn_live_<12 hex: lookup id><43 base62: 256-bit secret><6 base62: CRC32 checksum>` — 70 characters, one token for
 * scanners (no inner separator after the fixed prefix, like GitHub's `ghp_…`). The checksum is the CRC32 of everything
 * before it (`wdn_live_` included), written in base62 and left-padded with `0` to 6 characters, so a typo or a
 * truncated paste is refused offline, before any lookup. `wdn_test_` is reserved for test environments' keys and
 * parses the same way; Warden mints `wdn_live_`.
 */
export const KEY_PATTERN = /^(wdn_(?:live|test)_)([0-9a-f]{12})([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

/** For scanners and the memory guard: a Warden key anywhere in a text (the checksum decides whether it is one). */
export const KEY_IN_TEXT = /\bwdn_(?:live|test)_[0-9a-f]{12}[0-9A-Za-z]{49}\b/g;

/** Keys minted before the `wdn_` format (`wk_<12 hex>_<43 base64url>`): still verified, never minted again. */
export const LEGACY_KEY_PATTERN = /^wk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export const KEY_PREFIX = "wdn_live_";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, the zlib/PNG one) of an ASCII string. */
export function crc32(text: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < text.length; i++) c = (CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function base62(n: number, width: number): string {
  let s = "";
  for (let v = n; v > 0; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return s.padStart(width, "0");
}

export const checksumOf = (body: string) => base62(crc32(body), 6);

/** Uniform base62 characters by rejection sampling (bytes ≥ 248 are redrawn, so no character is favoured). */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** A new key and its lookup id (the `prefix` column). */
export function generateApiKey(): { prefix: string; key: string } {
  const prefix = toHex(crypto.getRandomValues(new Uint8Array(6)));
  const body = `${KEY_PREFIX}${prefix}${randomBase62(43)}`;
  return { prefix, key: `${body}${checksumOf(body)}` };
}

export type ParsedKey = { ok: true; prefix: string } | { ok: false; error: string };

/** The offline check: format and checksum. Answers the lookup id, or why the key cannot be one of ours. */
export function parseApiKey(key: string): ParsedKey {
  const m = KEY_PATTERN.exec(key);
  if (m) {
    const [, fixed, prefix, secret, sum] = m as unknown as [string, string, string, string, string];
    if (checksumOf(`${fixed}${prefix}${secret}`) !== sum) return { ok: false, error: "API key checksum mismatch" };
    return { ok: true, prefix };
  }
  const legacy = LEGACY_KEY_PATTERN.exec(key);
  if (legacy) return { ok: true, prefix: legacy[1] as string };
  return { ok: false, error: "malformed API key (expected wdn_live_…)" };
}
