// Wire shapes of the memory and session routes (zod, with OpenAPI examples).
import { z } from "zod";
import { SessionKind } from "../../../contracts/session-event.v1";
import { MAX_NAMESPACE_LENGTH } from "./namespaces";
import { MEMORY_CLASSES } from "./ranking";

const Namespace = z
  .string()
  .min(1)
  .max(MAX_NAMESPACE_LENGTH)
  .meta({ example: "team/team-a/project/billing/incidents" });
const MemoryClass = z.enum(MEMORY_CLASSES);
const QueryClass = z.enum([...MEMORY_CLASSES, "rigid"]);
// generous bounds, so a token hidden in a tag or key meets the guard (422) rather than the length check (400)
const Tag = z.string().min(1).max(256);
const Metadata = z.record(z.string().max(256), z.unknown());
const MemId = z.string().min(1).max(64);
const Tier = z.enum(["hot", "warm", "cold", "archived"]);

/** Text may be longer than the summary limit here so that the limit answers 422 (rejected), not 400. */
const MAX_TEXT = 100_000;

export const WriteBody = z
  .strictObject({
    namespace: Namespace,
    class: MemoryClass,
    text: z.string().trim().min(1).max(MAX_TEXT),
    tags: z.array(Tag).max(32).optional(),
    metadata: Metadata.optional(),
    pinned: z.boolean().optional(),
    supersedes: MemId.optional(),
  })
  .meta({
    id: "MemoryWrite",
    example: {
      namespace: "team/team-a/project/billing",
      class: "semantic",
      text: "task deploy-api failed: reason bucket timeout, exit-code bucket 1xx; raising the step timeout to 120 s fixed it",
      tags: ["deploy", "timeout"],
      metadata: { task_key: "deploy-api", reason: "timeout" },
    },
  });

export const WriteResponse = z
  .object({
    id: z.string(),
    tier: Tier,
    status: z.enum(["created", "reinforced"]),
    supersedes: z.string().optional(),
  })
  .meta({ id: "MemoryWriteResult", example: { id: "mem_5c1f…", tier: "hot", status: "created" } });

export const BulkBody = z
  .strictObject({
    items: z
      .array(WriteBody.omit({ supersedes: true }))
      .min(1)
      .max(100),
  })
  .meta({
    id: "MemoryBulkWrite",
    example: {
      items: [
        {
          namespace: "team/team-a/org/runbooks",
          class: "kb",
          text: "Drain the ingest queue with the replay tool before restarting",
        },
        {
          namespace: "team/team-a/org/runbooks",
          class: "kb",
          text: "Certificate renewal for the edge proxy runs on the 1st",
        },
      ],
    },
  });
export const BulkResponse = z.object({ results: z.array(WriteResponse) }).meta({ id: "MemoryBulkWriteResult" });

export const QueryBody = z
  .strictObject({
    namespaces: z.array(Namespace).min(1).max(16),
    text: z.string().trim().min(1).max(4000),
    top_k: z.int().min(1).max(50).optional(),
    classes: z.array(QueryClass).min(1).max(5).optional(),
  })
  .meta({
    id: "MemoryQuery",
    example: { namespaces: ["team/team-a/org", "team/team-a/project/billing"], text: "deploy timeout", top_k: 5 },
  });

const Scores = z.object({ similarity: z.number(), importance: z.number(), recency: z.number() });
export const QueryResult = z.object({
  id: z.string(),
  namespace: z.string(),
  class: QueryClass,
  text: z.string(),
  tags: z.array(z.string()),
  pinned: z.boolean(),
  supersedes: z.string().nullable(),
  created_at: z.int(),
  score: z.number().meta({ description: "similarity × importance × recency" }),
  scores: Scores,
  evidence: z.array(z.string()).meta({ description: "the artifact ids the memory summarizes (metadata.evidence)" }),
});
export const QueryResponse = z.object({ results: z.array(QueryResult) }).meta({ id: "MemoryQueryResult" });

export const UseBody = z
  .strictObject({ ids: z.array(MemId).min(1).max(100), run_id: z.string().min(1).max(128).optional() })
  .meta({ id: "MemoryUse", example: { ids: ["mem_5c1f…"], run_id: "run_9a…" } });
export const UseResponse = z
  .object({
    used: z.array(z.string()),
    boosted: z.array(z.string()),
    not_found: z.array(z.string()),
    actor_key: z.string(),
  })
  .meta({ id: "MemoryUseResult" });

export const ImportBody = z
  .strictObject({
    namespace: Namespace,
    kind: z.enum(["charter", "allowlist"]),
    entries: z
      .array(
        z.strictObject({
          text: z.string().trim().min(1).max(MAX_TEXT),
          tags: z.array(Tag).max(32).optional(),
          metadata: Metadata.optional(),
        }),
      )
      .min(1)
      .max(100),
    replace: z.boolean().optional(),
  })
  .meta({
    id: "MemoryImport",
    example: {
      namespace: "team/team-a/org/charter",
      kind: "charter",
      entries: [{ text: "Never deploy on Fridays after 15:00 UTC." }],
      replace: true,
    },
  });
export const ImportResponse = z
  .object({ imported: z.int(), ids: z.array(z.string()), archived: z.array(z.string()) })
  .meta({ id: "MemoryImportResult" });

export const ActivateBody = z
  .strictObject({
    session_kind: SessionKind,
    agent_id: z.string().min(1).max(128).optional(),
    need_fingerprint: z
      .string()
      .regex(/^(sha256:)?[0-9a-f]{16,64}$/, "a hex digest, never the raw need")
      .optional(),
    query: z.string().trim().min(1).max(4000).optional(),
  })
  .meta({
    id: "MemoryActivate",
    example: {
      session_kind: "warden.agent.claude",
      agent_id: "claude",
      need_fingerprint: "sha256:9f2c…",
      query: "rotate expiring access",
    },
  });

export const Episode = z.object({
  id: z.string(),
  session_kind: z.string(),
  command: z.string(),
  outcome: z.enum(["resolved", "escalated", "skipped"]),
  need_fingerprint: z.string(),
  route_id: z.string(),
  agent_id: z.string(),
  session_id: z.string(),
  diagnostic_codes: z.array(z.string()),
  failure_cause: z.string().nullable(),
  episode_index: z.int().nullable(),
  created_at: z.int(),
});
export const ActivateResponse = z
  .object({
    /** send it back as session_event.v1 activation_id so the session is linked to what memory served */
    activation_id: z.string(),
    stabilized_routes: z.array(
      z.object({
        need_fingerprint: z.string(),
        route_id: z.string(),
        resolved_count: z.int(),
        last_resolved_at: z.int(),
        lifetime_resolved: z.int(),
        /** lower bound on the route's resolve rate; served when ≥ 0.76 (docs/learning.md, "Stabilization") */
        confidence: z.number(),
        pinned: z.boolean(),
      }),
    ),
    recent_episodes: z.array(Episode),
    hints: z.array(QueryResult),
    llm_calls_avoided: z.int(),
    covered_route: z.string().nullable(),
    rigid: z.array(z.object({ id: z.string(), kind: z.string(), namespace: z.string(), text: z.string() })),
  })
  .meta({ id: "MemoryActivation" });

export const SessionEventCreated = z
  .object({ id: z.string(), created_at: z.int() })
  .meta({ id: "SessionEventCreated" });
