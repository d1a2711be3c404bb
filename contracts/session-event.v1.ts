// ops-warden session_event.v1: one episode of a worker, operator or agent session.
import { z } from "zod";

export const SESSION_OUTCOMES = ["resolved", "escalated", "skipped"] as const;
/** what an escalation was caused by: the route itself, the environment it ran in (noise), or nobody knows */
export const FAILURE_CAUSES = ["route", "environment", "unknown"] as const;
/** the most episodes one session may number */
export const MAX_EPISODES_PER_SESSION = 64;

export const SessionKind = z
  .string()
  .regex(
    /^warden\.(worker|operator|agent\.[a-z0-9][a-z0-9_-]{0,63})$/,
    "warden.worker | warden.operator | warden.agent.<id>",
  );

export const SessionEventV1 = z
  .strictObject({
    schema: z.literal("phase_memory.ops_warden.session_event.v1").optional(),
    session_kind: SessionKind,
    command: z.string().min(1).max(256),
    outcome: z.enum(SESSION_OUTCOMES),
    need_fingerprint: z.string().regex(/^(sha256:)?[0-9a-f]{16,64}$/, "a hex digest, never the raw need"),
    route_id: z.string().min(1).max(128),
    agent_id: z.string().min(1).max(128),
    session_id: z.string().min(1).max(128),
    diagnostic_codes: z.array(z.string().min(1).max(64)).max(32),
    /** the activation_id POST /v1/memory/activate answered before this session, linking the route to memory */
    activation_id: z.string().min(1).max(128).optional(),
    /** memory: the route was the one activation served; reasoned: the agent worked it out */
    route_source: z.enum(["memory", "reasoned"]).optional(),
    /**
     * escalated only: what caused it. route: the route is wrong for the need; environment: the route is right but the
     * world failed it (timeout, outage, flaky dependency); unknown (the default when absent): nobody can tell
     */
    failure_cause: z
      .enum(FAILURE_CAUSES)
      .meta({ description: "only with outcome escalated: route | environment | unknown (unknown when absent)" })
      .optional(),
    /** the episode's place in its session (0 first): route tried → failed → fallback resolved is 0, 1 */
    episode_index: z
      .int()
      .min(0)
      .max(MAX_EPISODES_PER_SESSION - 1)
      .meta({ description: "the episode's place in its session, 0 first; episodes without one count as 0" })
      .optional(),
  })
  .refine((e) => e.failure_cause === undefined || e.outcome === "escalated", {
    path: ["failure_cause"],
    message: "failure_cause is given only with outcome escalated",
  })
  .meta({
    id: "SessionEventV1",
    title: "ops-warden session_event.v1",
    // the refinement above, for JSON Schema readers: a failure_cause needs outcome escalated
    if: { required: ["failure_cause"] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited
    then: { properties: { outcome: { const: "escalated" } } },
  });
export type SessionEventV1 = z.infer<typeof SessionEventV1>;
