// Wire shapes of the team's dead letters (GET /v1/dead-letters and GET /v1/dead-letters/:dead_letter_id).
import { z } from "zod";
import { GateViewSchema } from "../gates/domain";

export const DeadLetterListQuery = z.object({
  status: z.enum(["open", "resolved", "all"]).default("open").meta({ description: "open (the default): not resolved" }),
  reason: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "a reason code (attempts_exhausted …) or a failure class (wrong_value …)" }),
  since: z.coerce.number().int().min(0).optional().meta({ description: "created at or after (ms since the epoch)" }),
  run_id: z.string().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const DeadLetterParams = z.object({ dead_letter_id: z.string().min(1).max(128) });

export const DeadLetterItem = z.object({
  dead_letter_id: z.string(),
  run_id: z.string(),
  op_id: z.string(),
  order_id: z.string().nullable(),
  task_id: z.string().nullable(),
  reason_code: z.string(),
  failure_class: z.string().nullable(),
  created_at: z.int(),
  resolved_at: z.int().nullable(),
  resolver: z.string().nullable(),
  review_gate_id: z.string().nullable().meta({
    description: "its dead_letter_review gate (wrong_value): decide it with POST /v1/gates/:gate_id/decision",
  }),
  review_status: z.string().nullable().meta({ description: "that gate's status (pending until a human decides)" }),
});

const example = {
  dead_letter_id: "dl_4f1c…",
  run_id: "run_5b0c…",
  op_id: "op-77",
  order_id: "o1",
  task_id: "extract-invoice",
  reason_code: "wrong_value",
  failure_class: "wrong_value",
  created_at: 1767225600000,
  resolved_at: null,
  resolver: null,
  review_gate_id: "gate_9a3f…",
  review_status: "pending",
};

export const DeadLetterList = z
  .object({ dead_letters: z.array(DeadLetterItem) })
  .meta({ id: "DeadLetterList", example: { dead_letters: [example] } });

export const DeadLetterDetail = DeadLetterItem.extend({
  goal: z.string().nullable(),
  attempts: z.int().nullable(),
  review: GateViewSchema.nullable().meta({
    description: "the review gate with its evidence (context: reason, input, output, artifacts) and digest",
  }),
}).meta({ id: "DeadLetter", example: { ...example, goal: "extract the invoice total", attempts: 1, review: null } });
