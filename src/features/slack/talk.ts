// `talk` over Slack: the run and task a talk opens (from `/warden talk` or a DM to the bot), and the messages people
// write back — a reply in a run's thread, or in its DM — stored as the run's messages for the worker to read.
import { z } from "zod";
import { log } from "../../lib/log";
import { scanFields } from "../memory";
import { appendPersonReply, threadKeys } from "../messages";
import { DEFAULT_BUDGET } from "../runs";
import type { SlackNeeds } from "./needs";
import type { SlackApprover, SlackInstallation } from "./store/slack-store-port";

type Actor = { team_id: string; subject: string };
export type TalkOpened = { runId: string; order: { order_id: string; task_id: string } };

/** The longest `talk` message (it becomes a work order's goal, capped at 2000 by WorkOrder v1). */
export const TALK_MAX = 2000;

/** Why a talk message is refused before anything starts (the guard's rule ids, never the text); null when it passes. */
export async function talkRefusal(message: string): Promise<string | null> {
  if (!message) return null;
  const verdict = await scanFields([{ path: "message", value: message }]);
  return verdict.ok
    ? null
    : `the message looks like it holds a secret or personal data (${verdict.ruleIds.join(", ")})`;
}

/**
 * A run (goal: the message) with one work order for a worker with the `talk` skill; a run whose order could not be
 * added is stopped, so nothing waits for a worker that has nothing to do. The caller has guarded the message.
 */
export async function openTalkRun(
  deps: SlackNeeds,
  actor: Actor,
  userId: string,
  message: string,
): Promise<{ ok: true; value: TalkOpened } | { ok: false; why: string }> {
  const text = message || "(no message)";
  const runId = deps.newId("run");
  const run = deps.runs.get(runId);
  const created = await run.create(runId, {
    actor,
    run_id: runId,
    goal: `talk: ${text}`.slice(0, 2000),
    template: null,
    skills: ["talk"],
    budget: { ...DEFAULT_BUDGET, total_tokens: null },
  });
  if (!created.ok) return { ok: false, why: why(created.error) };
  const order = { order_id: deps.newId("ord"), task_id: deps.newId("task") };
  const added = await run.add_order(runId, {
    actor,
    skill: "talk",
    order: {
      ...order,
      goal: text,
      input_json: { message, slack_user_id: userId },
      output_schema_id: "talk.reply.v1",
      timeout_sec: 300,
    },
  });
  if (!added.ok) {
    await run.stop(runId, { actor, reason: "talk: its task could not be added" });
    return { ok: false, why: why(added.error) };
  }
  return { ok: true, value: { runId, order } };
}
const why = (e: { code: string } | { code: string; message: string }) => ("message" in e ? e.message : e.code);

/** A person's message as the Events API sends it; anything else (edits, joins, bots, the bot itself) is not one. */
const PersonMessage = z.object({
  type: z.literal("message"),
  channel: z.string().min(1),
  channel_type: z.string().optional(),
  user: z.string().min(1),
  text: z.string(),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
  bot_id: z.undefined().optional(),
  subtype: z.undefined().optional(),
});
type PersonMessage = z.infer<typeof PersonMessage>;

/**
 * An Events API `message` (signed, first delivery): a roster member's reply in a thread of one of Warden's own runs
 * (feed or DM) becomes a run message; a roster member's new DM to the bot opens a talk. Everything else is ignored.
 */
export async function handleMessageEvent(deps: SlackNeeds, workspace: string | undefined, event: unknown) {
  const parsed = PersonMessage.safeParse(event);
  if (!parsed.success || !workspace) return;
  const m = parsed.data;
  const inst = await deps.slackStore.byWorkspace(workspace);
  if (!inst) return;
  const member = inst.approvers.find((a) => a.slack_user_id === m.user);
  if (!member) {
    log.info("slack message from a user off the roster ignored", { team_id: inst.team_id });
    return;
  }
  if (m.thread_ts && m.thread_ts !== m.ts) return threadReply(deps, inst, member, m, m.thread_ts);
  if (m.channel_type === "im") return directMessage(deps, inst, member, m);
}

async function threadReply(
  deps: SlackNeeds,
  inst: SlackInstallation,
  member: SlackApprover,
  m: PersonMessage,
  threadTs: string,
) {
  const thread = await deps.runMessages.threadRun(m.channel, threadTs);
  if (!thread || thread.team_id !== inst.team_id) return;
  const r = await appendPersonReply(deps, {
    team_id: inst.team_id,
    run_id: thread.run_id,
    author: member.subject,
    source: thread.kind === "dm" ? "slack_dm" : "slack_thread",
    text: m.text,
    slack_ts: m.ts,
  });
  if (r.ok) return;
  const key = thread.kind === "dm" ? threadKeys.dm(thread.run_id) : threadKeys.feed(thread.run_id);
  await deps.slackOutbox.send([
    {
      kind: "post",
      team_id: inst.team_id,
      key: `refused:${m.channel}:${m.ts}`,
      channel: "feed",
      ...(thread.kind === "dm" ? { channel_id: m.channel } : {}),
      thread_key: key,
      text: `Not passed to the worker: your reply looks like it holds a secret or personal data (${r.ruleIds.join(", ")}).`,
    },
  ]);
}

/**
 * A new DM to the bot: a talk whose thread is that DM (recorded as the run's `dm:` root, so the worker's answers and
 * the person's replies stay in the DM). The run's feed is muted: a private conversation does not post to a channel.
 */
async function directMessage(deps: SlackNeeds, inst: SlackInstallation, member: SlackApprover, m: PersonMessage) {
  const now = deps.clock.now();
  const reply = (key: string, text: string, threaded: boolean) =>
    deps.slackOutbox.send([
      {
        kind: "post",
        team_id: inst.team_id,
        key,
        channel: "feed",
        channel_id: m.channel,
        ...(threaded ? { thread_key: key.replace(/^talk:/, "dm:") } : {}),
        text,
      },
    ]);
  const message = m.text.trim().slice(0, TALK_MAX);
  const refused = await talkRefusal(message);
  if (refused) return reply(`refused:${m.channel}:${m.ts}`, `Not started: ${refused}.`, false);
  const actor = { team_id: inst.team_id, subject: member.subject };
  const opened = await openTalkRun(deps, actor, m.user, message);
  if (!opened.ok) return reply(`refused:${m.channel}:${m.ts}`, `Could not start the talk: ${opened.why}`, false);
  const { runId, order } = opened.value;
  await deps.slackStore.recordPosted(
    { key: threadKeys.dm(runId), teamId: inst.team_id, channel: m.channel, ts: m.ts, version: 0 },
    now,
  );
  await deps.slackFeed.setMuted(inst.team_id, runId, { by: "dm" }, now);
  await reply(
    `talk:${runId}`,
    `Started run \`${runId}\`; it spawned task \`${order.task_id}\` (order \`${order.order_id}\`) for a \`talk\` worker. Its answers come in this thread; reply here to answer back.`,
    true,
  );
}
