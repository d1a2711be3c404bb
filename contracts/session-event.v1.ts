// ops-warden session_event.v1: one episode of a worker, operator or agent session.
import { z } from "zod";

export const SESSION_OUTCOMES = ["resolved", "escalated", "skipped"] as const;

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
  })
  .meta({ id: "SessionEventV1", title: "ops-warden session_event.v1" });
export type SessionEventV1 = z.infer<typeof SessionEventV1>;
