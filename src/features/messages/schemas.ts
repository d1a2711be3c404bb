// Wire shapes of a run's messages (POST / GET /v1/runs/:run_id/messages).
import { z } from "zod";
import { WireId } from "../../../contracts/wire-id";

/** the longest message: a Slack message's readable length, and far below the guard's budget */
export const MAX_MESSAGE_CHARS = 4000;

export const PostMessageBody = z
  .strictObject({
    text: z.string().trim().min(1, "text must not be empty").max(MAX_MESSAGE_CHARS),
    op_id: WireId.optional().describe("the caller's idempotency key: a retry with it answers the message it wrote"),
    task_id: WireId.optional().describe("the task the message is about (default: the token's task_id)"),
  })
  .meta({
    id: "PostRunMessage",
    example: { text: "Found 3 invoices over the limit; task task_7 checks them.", op_id: "msg-1", task_id: "task_7" },
  });

export const RunMessageView = z
  .object({
    message_id: z.string(),
    run_id: z.string(),
    seq: z.int().describe("the order of the run's messages; pass the last one as ?after= to read only newer ones"),
    author_kind: z.enum(["worker", "person"]),
    author: z.string(),
    source: z.enum(["api", "slack_thread", "slack_dm"]),
    task_id: z.string().nullable(),
    text: z.string(),
    created_at: z.string().describe("ISO 8601"),
  })
  .meta({ id: "RunMessage" });

export const RunMessageList = z
  .object({
    messages: z.array(RunMessageView),
    next_after: z.int().describe("the seq to pass as ?after= next time (the last message's, or the one given)"),
  })
  .meta({ id: "RunMessageList" });

export const MessageListQuery = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .meta({ description: "read messages with seq above this (0: from the start)" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
