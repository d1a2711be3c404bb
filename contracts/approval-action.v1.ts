// ApprovalAction v1 (an SDOP contract): a human's (or the timer's) decision on a gate.
import { z } from "zod";
import { WireId } from "./wire-id";

export const APPROVAL_DECISIONS = ["approve_retry", "approve_skip", "approve_abort", "auto_allow", "deny"] as const;

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
  })
  .meta({ id: "ApprovalActionV1", title: "ApprovalAction v1" });
export type ApprovalActionV1 = z.infer<typeof ApprovalActionV1>;
