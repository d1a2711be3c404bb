// The one home of digests and hex: canonical JSON, lowercase hex of bytes, SHA-256 of text (async, WebCrypto).

/** Canonical JSON (sorted keys, undefined fields dropped) so equal inputs digest equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Two lowercase hex digits per byte value: a digest is 32 table reads, not 32 formatted strings and an array. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lowercase hex of bytes (a buffer is read as bytes). */
export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (let i = 0; i < view.length; i++) hex += HEX[view[i] as number];
  return hex;
}

/** SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** The synchronous SHA-256 the pure run reducer calls (crypto.subtle is async), from its own module. */
export { sha256HexSync } from "./sha256.ts";
