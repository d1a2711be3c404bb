// The parts of a memory write that touch no store: the fields the guard scans, the size problems, a refusal (the error,
// its memory_store_failed event and a log line without values) and the document a new memory becomes.
import type { AppError } from "../../errors";
import { log } from "../../lib/log";
import type { MemDoc } from "../../ports/memory-store";
import { METADATA_MAX_CHARS, sizeProblems } from "./content";
import type { Defer, MemoryServiceDeps } from "./core";
import { type GuardField, metadataFields } from "./guard/guard";
import type { Caller } from "./namespaces";
import { BASE_IMPORTANCE, expiresAtFor, type MemoryClass } from "./ranking";

export type WriteInput = {
  namespace: string;
  class: MemoryClass;
  text: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  pinned?: boolean;
  supersedes?: string;
};

export type RefusalCode = "redaction_required" | "pii_detected" | "rejected";
export type RefusalContext = { scope?: string; class?: string; items?: number[]; announce?: boolean };

/** The fields of a write the guard scans, each with its path in the request (`prefix` for an item of many). */
export function guardFields(
  w: Pick<WriteInput, "namespace" | "text" | "tags" | "metadata">,
  prefix = "",
): GuardField[] {
  return [
    { path: `${prefix}namespace`, value: w.namespace },
    { path: `${prefix}text`, value: w.text },
    ...(w.tags ?? []).map((t, i) => ({ path: `${prefix}tags[${i}]`, value: t })),
    ...metadataFields(`${prefix}metadata`, w.metadata ?? {}),
  ];
}

/** The 422 error, a memory_store_failed event (rule ids only) and a log line without values. */
export function refusal(
  d: Pick<MemoryServiceDeps, "newId" | "events">,
  maxChars: number,
  caller: Caller,
  now: number,
  defer: Defer,
  source: string,
  code: RefusalCode,
  ruleIds: string[],
  context: RefusalContext,
): AppError {
  const event = {
    event_id: d.newId("evt"),
    type: "memory_store_failed" as const,
    team_id: caller.teamId,
    run_id: caller.runId ?? null,
    occurred_at: now,
    source,
    code,
    rule_ids: ruleIds,
    ...(context.scope ? { scope: context.scope } : {}),
    ...(context.class ? { class: context.class } : {}),
    ...(context.items ? { items: context.items } : {}),
  };
  log.warn("memory write refused", { team_id: caller.teamId, source, code, rule_ids: ruleIds });
  if (context.announce !== false) {
    defer(
      d.events.publish([event]).catch((e) => log.error("memory_store_failed publish failed", { error: String(e) })),
    );
  }
  if (code !== "rejected") return { code, ruleIds };
  return {
    code,
    message: ruleIds.includes("size.raw_log")
      ? "store a summary and stable identifiers, not raw logs"
      : `summary exceeds ${maxChars} characters or metadata exceeds ${METADATA_MAX_CHARS}`,
    ruleIds,
  };
}

export function sizeOf(w: WriteInput, maxChars: number): string[] {
  const problems = sizeProblems(w.text, maxChars);
  if (JSON.stringify(w.metadata ?? {}).length > METADATA_MAX_CHARS) problems.push("size.metadata_too_large");
  return problems;
}

export function newDoc(
  id: string,
  caller: Caller,
  w: WriteInput,
  now: number,
  hash: string,
  supersedes: string | null,
): MemDoc {
  return {
    id,
    teamId: caller.teamId,
    namespace: w.namespace,
    cls: w.class,
    text: w.text,
    tags: w.tags ?? [],
    metadata: w.metadata ?? {},
    pinned: w.pinned ?? false,
    tier: "hot",
    supersedes,
    importance: BASE_IMPORTANCE,
    createdAt: now,
    refreshedAt: now,
    lastUsedAt: null,
    tierChangedAt: now,
    expiresAt: expiresAtFor(w.namespace, now),
    reinforceCount: 0,
    contentHash: hash,
  };
}
