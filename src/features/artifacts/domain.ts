// Pure artifact rules: upload headers, size limits, R2 keys, retention per kind, text chunks for the guard, verdicts.
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";

export type { ArtifactRow, ArtifactStatus, ArtifactStore } from "./store/artifact-store-port";

/** The kinds of artifact a run may attach (each with its own retention). */
export const ARTIFACT_KINDS = ["log", "json", "blob", "trace"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const MIB = 1024 * 1024;
/** the per-artifact limit (413 above it), checked from Content-Length and again while the body streams */
export const DEFAULT_ARTIFACT_MAX_BYTES = 10 * MIB;
/** the bytes a team may keep in artifacts at once (413 above it) */
export const DEFAULT_TEAM_QUOTA_BYTES = 1024 * MIB;
export const DAY_MS = 86_400_000;
/** how long an artifact of each kind is kept (seed 003 retention; swept by the daily cron) */
export const DEFAULT_RETENTION_DAYS: Record<ArtifactKind, number> = { log: 30, json: 90, trace: 30, blob: 30 };
/** kinds whose bytes are text: UTF-8, checked by the secret and PII guard */
export const TEXT_KINDS: ReadonlySet<ArtifactKind> = new Set(["log", "json", "trace"]);
/**
 * The largest text artifact: the guard scans it inside the upload request at about 0.8–1.4 s of CPU per MiB (bench
 * `artifacts`), so 4 MiB stays near 6 s at worst, a fifth of Workers' default 30 s CPU limit, where 10 MiB took ~14 s.
 * Bytes nobody reads as text go up as `blob` (not scanned, up to the per-artifact limit).
 */
export const TEXT_ARTIFACT_MAX_BYTES = 4 * MIB;

/** The size limit of an artifact of this kind: the per-artifact limit, and for text kinds the scan's cap too. */
export const limitFor = (kind: ArtifactKind, maxBytes: number) =>
  TEXT_KINDS.has(kind) ? Math.min(maxBytes, TEXT_ARTIFACT_MAX_BYTES) : maxBytes;
/** the guard reads at most this many characters per call; longer texts are read in overlapping chunks */
export const SCAN_CHUNK_CHARS = 256 * 1024;
/** chunks overlap by this much, so a value shorter than it is whole in at least one chunk */
export const SCAN_OVERLAP_CHARS = 4096;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const ID = /^[\w.:-]{1,128}$/;

export type UploadHeaders = {
  kind: string | undefined;
  sha256: string | undefined;
  opId: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
};
export type UploadMeta = { kind: ArtifactKind; sha256: string; opId: string | null; contentType: string };

const invalid = (path: string, message: string): AppError => ({
  code: "validation_failed",
  issues: [{ path, message }],
});

/** The upload's headers as metadata, or the refusal: a bad kind, hash or op id (400), a declared size over `maxBytes` (413). */
export function parseUploadHeaders(h: UploadHeaders, maxBytes: number): Result<UploadMeta, AppError> {
  if (h.kind === undefined || !(ARTIFACT_KINDS as readonly string[]).includes(h.kind)) {
    return err(invalid("x-artifact-kind", `must be one of ${ARTIFACT_KINDS.join(", ")}`));
  }
  const sha = h.sha256?.toLowerCase();
  if (sha === undefined || !SHA256_HEX.test(sha)) {
    return err(invalid("x-sha256", "must be the body's SHA-256 as 64 hex digits"));
  }
  if (h.opId !== undefined && !ID.test(h.opId)) return err(invalid("x-op-id", "must be 1-128 of [A-Za-z0-9_.:-]"));
  if (h.contentLength !== undefined) {
    const declared = Number(h.contentLength);
    const limit = limitFor(h.kind as ArtifactKind, maxBytes);
    if (Number.isFinite(declared) && declared > limit) return err(tooLarge(limit, h.kind as ArtifactKind));
  }
  const contentType = (h.contentType ?? "application/octet-stream").trim().slice(0, 128) || "application/octet-stream";
  return ok({ kind: h.kind as ArtifactKind, sha256: sha, opId: h.opId ?? null, contentType });
}

export const tooLarge = (maxBytes: number, kind?: ArtifactKind): AppError => ({
  code: "payload_too_large",
  limitBytes: maxBytes,
  message:
    kind && TEXT_KINDS.has(kind) && maxBytes === TEXT_ARTIFACT_MAX_BYTES
      ? `a ${kind} artifact is scanned for secrets as it is uploaded: at most ${maxBytes} bytes; split it, or upload bytes nobody reads as text as a blob`
      : `artifact exceeds ${maxBytes} bytes; split it or store a summary`,
});

export const quotaExceeded = (quotaBytes: number, usedBytes: number, size: number): AppError => ({
  code: "payload_too_large",
  limitBytes: quotaBytes,
  message:
    `team artifact quota of ${quotaBytes} bytes would be exceeded (${usedBytes} stored, ${size} sent); ` +
    "older artifacts leave with their retention, or ask an operator for a larger ARTIFACT_TEAM_QUOTA_BYTES",
});

export const hashMismatch = (): AppError => ({
  code: "rejected",
  message: "the body's SHA-256 does not match x-sha256; nothing was stored",
  ruleIds: ["artifact.sha256_mismatch"],
});

/** The R2 key of an artifact: by team, then run, so a team's or a run's objects share a prefix. */
export function artifactKey(teamId: string, runId: string, artifactId: string): string {
  return `t/${encodeURIComponent(teamId)}/r/${encodeURIComponent(runId)}/${artifactId}`;
}

/** The prefix every artifact key starts with (the orphan pass lists under it). */
export const ARTIFACT_KEY_PREFIX = "t/";

/** The days each kind is kept for a team: its own setting where it has one, the deployment default elsewhere. */
export function retentionDays(team: Partial<Record<ArtifactKind, number>>): Record<ArtifactKind, number> {
  const days = { ...DEFAULT_RETENTION_DAYS };
  for (const kind of ARTIFACT_KINDS) {
    const own = team[kind];
    if (own !== undefined) days[kind] = Math.min(own, DEFAULT_RETENTION_DAYS[kind]);
  }
  return days;
}

/**
 * A team's requested retention, or the refusal (422) naming each kind set above the deployment default and that
 * bound: a team may keep its evidence for less time than the deployment, never longer (the quota and the seed's
 * retention are sized for the defaults). Values below 1 day are refused by the route's schema (400).
 */
export function checkRetention(days: Partial<Record<ArtifactKind, number>>): Result<typeof days, AppError> {
  const over = ARTIFACT_KINDS.filter((k) => (days[k] ?? 0) > DEFAULT_RETENTION_DAYS[k]);
  if (over.length === 0) return ok(days);
  return err({
    code: "rejected",
    message: over
      .map((k) => `${k}: ${days[k]} days is above the deployment default of ${DEFAULT_RETENTION_DAYS[k]} days`)
      .join("; "),
    ruleIds: ["artifact.retention_above_default"],
  });
}

export function expiresAt(kind: ArtifactKind, now: number, days: Record<ArtifactKind, number>): number {
  return now + days[kind] * DAY_MS;
}

/**
 * `text` as pieces of at most `size` characters, each starting `overlap` characters before the previous one ended,
 * so any span of at most `overlap` characters lies whole inside one piece (a secret is never cut in two).
 */
export function overlappingChunks(text: string, size = SCAN_CHUNK_CHARS, overlap = SCAN_OVERLAP_CHARS): string[] {
  if (!(overlap >= 0 && size > overlap)) throw new RangeError("chunk size must exceed the overlap");
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let start = 0; ; start += size - overlap) {
    out.push(text.slice(start, start + size));
    if (start + size >= text.length) return out;
  }
}

export type GuardFinding = { family: "secret" | "pii" | "url"; ruleId: string };
/** store: nothing found; hold: personal data (the pii_detected gate decides); refuse: a secret (never stored) */
export type ScanOutcome =
  | { action: "store" }
  | { action: "hold"; ruleIds: string[] }
  | { action: "refuse"; ruleIds: string[] };

/**
 * What the guard's findings mean for an artifact. Raw URLs are what logs are made of, so they pass; a secret refuses
 * the whole artifact; personal data holds it for a human.
 */
export function scanOutcome(findings: GuardFinding[]): ScanOutcome {
  const ids = (family: GuardFinding["family"]) => [
    ...new Set(findings.filter((f) => f.family === family).map((f) => f.ruleId)),
  ];
  const secrets = ids("secret");
  if (secrets.length > 0) return { action: "refuse", ruleIds: secrets.sort() };
  const pii = ids("pii");
  if (pii.length > 0) return { action: "hold", ruleIds: pii.sort() };
  return { action: "store" };
}
