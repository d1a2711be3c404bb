// /v1/runs/:run_id/messages: a worker posts to the run's conversation (runs:write), anyone of the team reads it after a
// cursor (runs:read).
import { createRoute } from "@hono/zod-openapi";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { RunParams, runErrors } from "../runs";
import type { MessagesNeeds } from "./needs";
import { MessageListQuery, PostMessageBody, RunMessageList, RunMessageView } from "./schemas";
import { listMessages, postWorkerMessage } from "./use-cases";

const errors = { ...commonErrors, ...runErrors };

export const messagesRoutes = featureApp<MessagesNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/messages",
      tags: ["runs"],
      summary:
        "Post a message to the run's conversation (a talk worker's answer): guarded like memory (422 for secrets or personal data), stored, and posted into the run's Slack thread or DM",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: RunParams, body: jsonBody(PostMessageBody) },
      responses: {
        201: jsonResponse(RunMessageView, "the message, stored (and queued for the run's Slack thread)"),
        200: jsonResponse(RunMessageView, "a retry with the same op_id and text: the message it wrote"),
        ...errors,
      },
    }),
    async (c) => {
      const r = await postWorkerMessage(
        c.env.deps,
        c.get("principal"),
        c.req.valid("param").run_id,
        c.req.valid("json"),
      );
      return r.status === 201 ? c.json(r.message, 201) : c.json(r.message, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs/{run_id}/messages",
      tags: ["runs"],
      summary:
        "The run's messages after a cursor (?after=<seq>), oldest first: workers' messages and the replies people wrote in its Slack thread or DM",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      request: { params: RunParams, query: MessageListQuery },
      responses: { 200: jsonResponse(RunMessageList, "a page of messages"), ...errors },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(await listMessages(c.env.deps, c.get("principal"), c.req.valid("param").run_id, q), 200);
    },
  );
