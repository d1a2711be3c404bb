// Upload use-case: check the caller, read the body within the limit, verify its hash, scan text, store object then row.
import type { Principal } from "../../auth/tokens";
import { AppFailure, orFail } from "../../errors";
import { scanFields } from "../memory";
import { actorOf, callRun } from "../runs";
import {
  artifactKey,
  expiresAt,
  type GuardFinding,
  hashMismatch,
  limitFor,
  overlappingChunks,
  parseUploadHeaders,
  quotaExceeded,
  retentionDays,
  type ScanOutcome,
  scanOutcome,
  TEXT_KINDS,
  tooLarge,
  type UploadHeaders,
} from "./domain";
import type { ArtifactsNeeds } from "./needs";
import type { ArtifactRow } from "./store/artifact-store-port";

export type UploadRequest = {
  runId: string;
  headers: UploadHeaders & { orderId?: string; leaseId?: string; epoch?: string };
  body: ReadableStream<Uint8Array> | null;
};

export type UploadReply = {
  artifact_id: string;
  run_id: string;
  kind: string;
  sha256: string;
  size_bytes: number;
  status: "held" | "released";
  gate_id?: string;
  expires_at: number;
};

/** The whole body, or null as soon as it passes `maxBytes` (the stream is cancelled: a lying Content-Length gains nothing). */
export async function readWithin(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The memory guard over a text artifact, chunk by chunk (its budget is per call); rule ids only, never values. */
export async function scanText(bytes: Uint8Array): Promise<ScanOutcome> {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AppFailure({
      code: "rejected",
      message: "log, json and trace artifacts must be UTF-8 text; send other bytes as kind blob",
      ruleIds: ["artifact.not_utf8"],
    });
  }
  const findings: GuardFinding[] = [];
  for (const chunk of overlappingChunks(text)) {
    const verdict = await scanFields([{ path: "body", value: chunk }]);
    if (!verdict.ok) findings.push(...verdict.hits.map((h) => ({ family: h.family, ruleId: h.ruleId })));
  }
  return scanOutcome(findings);
}

/** Checks everything that can refuse the upload before a byte is stored; answers the bytes and what the scan found. */
async function checkedUpload(deps: ArtifactsNeeds, principal: Principal, req: UploadRequest) {
  const { maxBytes } = deps.artifactLimits;
  const meta = orFail(parseUploadHeaders(req.headers, maxBytes));
  const epoch = req.headers.epoch === undefined ? null : Number(req.headers.epoch);
  await callRun(deps.runs, req.runId, "artifact_access", {
    actor: actorOf(principal),
    order_id: req.headers.orderId ?? null,
    lease_id: req.headers.leaseId ?? null,
    epoch: Number.isInteger(epoch) ? epoch : null,
  });
  const limit = limitFor(meta.kind, maxBytes);
  const bytes = await readWithin(req.body, limit);
  if (bytes === null) throw new AppFailure(tooLarge(limit, meta.kind));
  if ((await sha256Hex(bytes)) !== meta.sha256) throw new AppFailure(hashMismatch());
  const scan: ScanOutcome = TEXT_KINDS.has(meta.kind) ? await scanText(bytes) : { action: "store" };
  if (scan.action === "refuse") {
    throw new AppFailure({
      code: "redaction_required",
      message: "the artifact holds secrets; redact them and upload again (nothing was stored)",
      ruleIds: scan.ruleIds,
    });
  }
  return { meta, bytes, scan };
}

/**
 * Stores one artifact: the object first, then its row under the team's quota (over it: the object is deleted, 413).
 * Personal data holds the artifact and opens the run's pii_detected gate; if that fails, row and object go again.
 */
export async function uploadArtifact(deps: ArtifactsNeeds, principal: Principal, req: UploadRequest, now: number) {
  const { meta, bytes, scan } = await checkedUpload(deps, principal, req);
  const artifactId = deps.newId("art");
  const teamDays = await deps.artifactStore.retentionOf(principal.teamId);
  const row: ArtifactRow = {
    artifactId,
    teamId: principal.teamId,
    runId: req.runId,
    opId: meta.opId,
    kind: meta.kind,
    key: artifactKey(principal.teamId, req.runId, artifactId),
    contentType: meta.contentType,
    sizeBytes: bytes.byteLength,
    sha256: meta.sha256,
    status: scan.action === "hold" ? "held" : "released",
    gateId: null,
    createdBy: principal.subject,
    createdAt: now,
    expiresAt: expiresAt(meta.kind, now, retentionDays(teamDays)),
  };
  await deps.artifactObjects.put(row.key, bytes, { contentType: row.contentType, sha256: row.sha256, uploadedAt: now });
  const inserted = await deps.artifactStore.insertWithinQuota(row, deps.artifactLimits.teamQuotaBytes);
  if (!inserted) {
    await deps.artifactObjects.delete([row.key]);
    const used = await deps.artifactStore.usedBytes(principal.teamId);
    throw new AppFailure(quotaExceeded(deps.artifactLimits.teamQuotaBytes, used, row.sizeBytes));
  }
  const gateId = scan.action === "hold" ? await holdForReview(deps, principal, row, scan.ruleIds) : undefined;
  if (gateId !== undefined && gateId.status === "allowed") row.status = "released";
  const reply: UploadReply = {
    artifact_id: artifactId,
    run_id: req.runId,
    kind: meta.kind,
    sha256: meta.sha256,
    size_bytes: row.sizeBytes,
    status: row.status,
    expires_at: row.expiresAt,
    ...(gateId === undefined ? {} : { gate_id: gateId.gateId }),
  };
  return reply;
}

/**
 * Opens the run's pii_detected gate for a held artifact (hard by default; a team rule may make it auto, which releases
 * it at once, or deny, which refuses it). On any failure the artifact goes again: nothing is half-stored.
 */
async function holdForReview(deps: ArtifactsNeeds, principal: Principal, row: ArtifactRow, ruleIds: string[]) {
  const removeArtifact = async () => {
    await deps.artifactStore.deleteRows([row.artifactId]);
    await deps.artifactObjects.delete([row.key]);
  };
  let gate: { gate_id: string; status: "allowed" | "pending" | "denied" };
  try {
    gate = (
      await callRun(deps.runs, row.runId, "open_gate", {
        actor: actorOf(principal),
        op_id: `artifact:${row.artifactId}`,
        policy_key: "pii_detected",
        context: { artifact_id: row.artifactId, kind: row.kind, rule_ids: ruleIds, size_bytes: row.sizeBytes },
      })
    ).value;
    await deps.artifactStore.setGate(row.teamId, row.artifactId, gate.gate_id);
    if (gate.status === "allowed") await deps.artifactStore.release(row.teamId, row.artifactId);
  } catch (e) {
    await removeArtifact();
    throw e;
  }
  if (gate.status === "denied") {
    await removeArtifact();
    throw new AppFailure({
      code: "pii_detected",
      message: "the artifact holds personal data and the team's pii_detected rule denies it; nothing was stored",
      ruleIds,
    });
  }
  return { gateId: gate.gate_id, status: gate.status };
}
