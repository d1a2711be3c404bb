// Acknowledgements a deploy gate asks of its approval note (`ack:<name>`), pure: which ones a note still lacks.

/**
 * The names the gate's context lists under `acks_required` (a promotion's failure classes whose replay changed more
 * decisions than the threshold, docs/learning.md) that `note` does not acknowledge as `ack:<name>` (case-insensitive,
 * a whole token: `ack:vibe_fail` does not acknowledge `vibe`). Sorted; empty when nothing is missing.
 */
export function missingAcks(context: Record<string, unknown>, note: string | null): string[] {
  const required = context.acks_required;
  if (!Array.isArray(required)) return [];
  const given = new Set(
    [...(note ?? "").matchAll(/(?:^|[\s,;(])ack:([a-z0-9_*.-]+)/gi)].map((m) => m[1]?.toLowerCase()),
  );
  return required.filter((r): r is string => typeof r === "string" && !given.has(r.toLowerCase())).sort();
}
