// Small synchronous, deterministic hashes for ids derived from run data (not for secrets).

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** FNV-1a 64-bit over the UTF-16 code units of `text`, as 16 hex digits. */
export function fnv64(text: string): string {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * FNV_PRIME) & MASK;
  }
  return h.toString(16).padStart(16, "0");
}

/** A stable id from parts: `${prefix}_${fnv64(parts joined by an unlikely separator)}`. */
export const stableId = (prefix: string, ...parts: (string | number)[]) => `${prefix}_${fnv64(parts.join("\u001f"))}`;
