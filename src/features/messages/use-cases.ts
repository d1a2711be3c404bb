// Run messages: a worker posts one (guarded, stored, then posted into the run's Slack thread), anyone of the run's
// team reads them after a cursor, and a person's Slack reply is stored as one.
import type { Principal } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import { actorOf, callRun, guardStored } from "../runs";
import { messageView, threadKeys, threadText } from "./domain";
import type { MessagesNeeds } from "./needs";
import { MAX_MESSAGE_CHARS } from "./schemas";
import type { RunMessage, RunMessageSource } from "./store/run-messages-port";

type PostBody = { text: string; op_id?: string | undefined; task_id?: string | undefined };

/** The run's object answers the view: 404 for another team's run, 403 for a token bound to another run. */
async function runOf(deps: MessagesNeeds, principal: Principal, runId: string) {
  return (await callRun(deps.runs, runId, "view", { actor: actorOf(principal) })).value;
}

/** The task a message is about: the one named, the token's, or the run's only order's. */
function taskOf(body: PostBody, principal: Principal, orders: Record<string, unknown>[]): string | null {
  if (body.task_id) return body.task_id;
  if (principal.taskId) return principal.taskId;
  const only = orders.length === 1 ? orders[0]?.task_id : undefined;
  return typeof only === "string" ? only : null;
}

/** POST /v1/runs/:run_id/messages: 201 for a new message, 200 for a retry with the same op_id and text. */
export async function postWorkerMessage(deps: MessagesNeeds, principal: Principal, runId: string, body: PostBody) {
  const run = await runOf(deps, principal, runId);
  // refused with the guard's 422 before anything is written (rule ids only, the text never echoed)
  await guardStored({ text: body.text });
  const now = deps.clock.now();
  const { message, created } = await deps.runMessages.append({
    message_id: deps.newId("msg"),
    team_id: principal.teamId,
    run_id: runId,
    author_kind: "worker",
    author: principal.subject,
    source: "api",
    task_id: taskOf(body, principal, run.orders),
    text: body.text,
    created_at: now,
    dedupe_key: body.op_id ? `op:${body.op_id}` : `new:${deps.newId("m")}`,
  });
  if (!created && (message.text !== body.text || message.author !== principal.subject))
    throw new AppFailure({ code: "conflict", message: `op_id ${body.op_id} was used for another message` });
  if (created) await postToThread(deps, principal.teamId, message);
  return { status: created ? (201 as const) : (200 as const), message: messageView(message) };
}

/**
 * Posts a worker's message into the run's Slack thread (its DM, else its feed thread) through the outbox, so Slack
 * being down is the outbox's retry and outage handling; a run without a thread (or a team without Slack) posts nothing.
 */
async function postToThread(deps: MessagesNeeds, teamId: string, m: RunMessage): Promise<void> {
  if (!(await deps.slackStore.byTeam(teamId))) return;
  const dm = await deps.slackStore.postedMessage(threadKeys.dm(m.run_id));
  const feed = dm ? null : await deps.slackStore.postedMessage(threadKeys.feed(m.run_id));
  if (!dm && !feed) return;
  await deps.slackOutbox.send([
    {
      kind: "post",
      team_id: teamId,
      key: `msg:${m.message_id}`,
      channel: "feed",
      ...(dm
        ? { channel_id: dm.channel, thread_key: threadKeys.dm(m.run_id) }
        : { thread_key: threadKeys.feed(m.run_id) }),
      text: threadText(m),
    },
  ]);
}

/** GET /v1/runs/:run_id/messages?after=: the run's messages after the cursor, oldest first. */
export async function listMessages(
  deps: MessagesNeeds,
  principal: Principal,
  runId: string,
  q: { after: number; limit: number },
) {
  await runOf(deps, principal, runId);
  const messages = await deps.runMessages.list(principal.teamId, runId, q.after, q.limit);
  return { messages: messages.map(messageView), next_after: messages.at(-1)?.seq ?? q.after };
}

/** A person's reply in a run's Slack thread or DM (Slack ingress, already verified and mapped to the roster). */
export async function appendPersonReply(
  deps: Pick<MessagesNeeds, "runMessages" | "newId" | "clock">,
  reply: { team_id: string; run_id: string; author: string; source: RunMessageSource; text: string; slack_ts: string },
): Promise<{ ok: true; message: RunMessage } | { ok: false; code: string; ruleIds: string[] }> {
  const text = reply.text.slice(0, MAX_MESSAGE_CHARS);
  try {
    await guardStored({ text });
  } catch (e) {
    if (e instanceof AppFailure && "ruleIds" in e.error)
      return { ok: false, code: e.error.code, ruleIds: e.error.ruleIds ?? [] };
    throw e;
  }
  const { message } = await deps.runMessages.append({
    message_id: deps.newId("msg"),
    team_id: reply.team_id,
    run_id: reply.run_id,
    author_kind: "person",
    author: reply.author,
    source: reply.source,
    task_id: null,
    text,
    created_at: deps.clock.now(),
    dedupe_key: `slack:${reply.slack_ts}`,
  });
  return { ok: true, message };
}
