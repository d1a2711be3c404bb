// The content hash of a team's memory rows, computed the same way over D1's rows and over the team object's rows.

/** What the hash covers of one memory: enough to tell a lost, changed or re-tiered row from its copy. */
export type MemoryHashRow = { id: string; contentHash: string | null; tier: string; importance: number };

/** One line per row, sorted by id (JavaScript's order, so both sides sort alike whatever their SQL collation). */
export function memoryHashText(rows: MemoryHashRow[]): string {
  return [...rows]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => `${r.id}\t${r.contentHash ?? ""}\t${r.tier}\t${r.importance}\n`)
    .join("");
}

/** SHA-256 (hex) over `memoryHashText`: equal for the same rows in any order, different when any field differs. */
export async function memoryRowsHash(rows: MemoryHashRow[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(memoryHashText(rows)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
