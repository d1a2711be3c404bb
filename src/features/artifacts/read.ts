// Read use-cases: one artifact's row and bytes for a reader of its team (held ones only once their gate allows), a run's list.
import { AppFailure } from "../../errors";
import type { StoredObject } from "../../ports/artifact-objects";
import { callRun, type RunActor } from "../runs";
import type { ArtifactsNeeds } from "./needs";
import type { ArtifactRow } from "./store/artifact-store-port";

/** Who reads: the team, the run a token or link is bound to (if any), and the actor the run object checks. */
export type Reader = { teamId: string; boundRunId?: string; actor: RunActor };

const RELEASING = new Set(["approved", "auto_allowed"]);
const WITHHOLDING = new Set(["denied", "aborted", "skipped"]);

/** The artifact's row, if the reader may see it at all (another team's or another run's reads as absent: 404). */
export async function artifactRow(deps: ArtifactsNeeds, reader: Reader, artifactId: string): Promise<ArtifactRow> {
  const row = await deps.artifactStore.get(reader.teamId, artifactId);
  if (!row || (reader.boundRunId !== undefined && row.runId !== reader.boundRunId)) {
    throw new AppFailure({ code: "not_found", message: `artifact ${artifactId} not found` });
  }
  return row;
}

/**
 * A held artifact is readable once its pii_detected gate was approved (the row is released then, once); while the
 * gate waits it is 409, after a refusal 403.
 */
async function releasedOrRefused(deps: ArtifactsNeeds, reader: Reader, row: ArtifactRow): Promise<void> {
  if (row.status === "released") return;
  const pending = (gate: string) =>
    new AppFailure({
      code: "conflict",
      message: `artifact ${row.artifactId} holds personal data and is held until pii_detected gate ${gate} is decided`,
    });
  if (row.gateId === null) throw pending("(opening)");
  const gate = await callRun(deps.runs, row.runId, "get_gate", { actor: reader.actor, gate_id: row.gateId });
  if (RELEASING.has(gate.value.status)) {
    await deps.artifactStore.release(row.teamId, row.artifactId);
    return;
  }
  if (WITHHOLDING.has(gate.value.status)) {
    throw new AppFailure({
      code: "forbidden",
      message: `artifact ${row.artifactId} is withheld: its pii_detected review was ${gate.value.status}`,
    });
  }
  throw pending(row.gateId);
}

export async function openArtifact(
  deps: ArtifactsNeeds,
  reader: Reader,
  artifactId: string,
): Promise<{ row: ArtifactRow; object: StoredObject }> {
  const row = await artifactRow(deps, reader, artifactId);
  await releasedOrRefused(deps, reader, row);
  const object = await deps.artifactObjects.get(row.key);
  if (!object) throw new AppFailure({ code: "not_found", message: `artifact ${artifactId} not found` });
  return { row, object };
}

/** The headers an artifact is served with: never rendered as a page of this origin (sandboxed, not sniffed). */
export function servedHeaders(row: ArtifactRow): Record<string, string> {
  return {
    "content-type": row.contentType,
    "content-length": String(row.sizeBytes),
    "content-security-policy": "default-src 'none'; sandbox",
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
    "x-sha256": row.sha256,
    "x-artifact-kind": row.kind,
    "content-disposition": `inline; filename="${row.artifactId}"`,
  };
}

/** The wire view of a row (what the list and the upload answer). */
export function artifactView(row: ArtifactRow) {
  return {
    artifact_id: row.artifactId,
    run_id: row.runId,
    op_id: row.opId,
    kind: row.kind,
    uri: `r2://artifacts/${row.key}`,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    status: row.status,
    gate_id: row.gateId,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
  };
}
