// ApprovalAction v1 (an SDOP contract): a human's (or the timer's) decision on a gate.
import { z } from "zod";
import { WireId } from "./wire-id";

export const APPROVAL_DECISIONS = ["approve_retry", "approve_skip", "approve_abort", "auto_allow", "deny"] as const;

/** a corrected input for a dead_letter_review: a JSON merge patch object, at most 64 KiB as JSON */
export const REVIEW_PATCH = z
  .record(z.string(), z.unknown())
  .refine((p) => JSON.stringify(p).length <= 64 * 1024, { message: "patch exceeds 64 KiB" });

/** a gate content digest: sha256 hex */
export const DIGEST = z.string().regex(/^[0-9a-f]{64}$/);

export const ApprovalActionV1 = z
  .strictObject({
    run_id: WireId,
    op_id: WireId,
    policy_key: z.string().min(1).max(128),
    decision: z.enum(APPROVAL_DECISIONS),
    note: z.string().max(2000).optional(),
    /** the gate content digest the approver saw (the gate views show it); required before the gate is armed */
    digest: DIGEST.optional(),
    /**
     * edit and retry of a dead_letter_review gate: a JSON merge patch (RFC 7396) to the order's input_json, applied
     * once when the gate is approved (approve_retry); needs `digest`
     */
    patch: REVIEW_PATCH.optional(),
  })
  .meta({ id: "ApprovalActionV1", title: "ApprovalAction v1" });
export type ApprovalActionV1 = z.infer<typeof ApprovalActionV1>;
