// Memory evidence: `metadata.evidence` lists artifact ids a memory summarizes; each must be an artifact of the team.
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { ArtifactStore } from "../artifacts/domain";

/** the most artifacts one memory may point back to */
export const MAX_EVIDENCE = 20;

/** The evidence ids of a memory's metadata (none when absent or malformed: the write refused malformed ones). */
export function evidenceOf(metadata: unknown): string[] {
  const ev = (metadata as { evidence?: unknown } | null | undefined)?.evidence;
  return Array.isArray(ev) ? ev.filter((x): x is string => typeof x === "string") : [];
}

/** Shape first (422 naming the path), then ownership: ids that are not the team's artifacts answer 404, naming them. */
export async function checkEvidence(
  artifacts: Pick<ArtifactStore, "ownedBy">,
  teamId: string,
  metadatas: readonly (Record<string, unknown> | undefined)[],
): Promise<Result<null, AppError>> {
  const wanted: string[] = [];
  for (const [i, metadata] of metadatas.entries()) {
    if (metadata === undefined || !Object.hasOwn(metadata, "evidence")) continue;
    const ev = metadata.evidence;
    const valid =
      Array.isArray(ev) &&
      ev.length <= MAX_EVIDENCE &&
      ev.every((x) => typeof x === "string" && x.length > 0 && x.length <= 128);
    if (!valid) {
      const at = metadatas.length > 1 ? `items[${i}].metadata.evidence` : "metadata.evidence";
      return err({
        code: "rejected",
        message: `${at} must be a list of at most ${MAX_EVIDENCE} artifact ids`,
        ruleIds: ["memory.evidence_malformed"],
      });
    }
    wanted.push(...(ev as string[]));
  }
  if (wanted.length === 0) return ok(null);
  const owned = new Set(await artifacts.ownedBy(teamId, null, wanted));
  const missing = [...new Set(wanted)].filter((id) => !owned.has(id));
  if (missing.length > 0)
    return err({ code: "not_found", message: `no artifact ${missing.join(", ")} for this team: nothing was written` });
  return ok(null);
}
