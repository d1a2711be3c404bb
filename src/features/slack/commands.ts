// Slash-command use-cases (`/warden new|status|stop|mute|unmute|talk|help`, any command name): the Slack user mapped to
// a Warden subject through the roster, each subcommand one run operation; the reply is the ephemeral answer Slack shows.

import { budgetStanding } from "../../lib/budget";
import { graphProgressText, HEALTH_KINDS, HEALTH_NOISE, type HealthDoc, healthDagItems } from "../board";
import { DEFAULT_BUDGET } from "../runs";
import { feedKeys, feedRootMessage, feedStatusMessage, type SlackPost } from "./feed";
import { signedRunLink } from "./links";
import type { SlackNeeds } from "./needs";
import { openTalkRun, TALK_MAX, talkRefusal } from "./talk";

export type CommandReply = { response_type: "ephemeral" | "in_channel"; text: string };
const say = (text: string): CommandReply => ({ response_type: "ephemeral", text });

export const USAGE = [
  "Usage:",
  '• `new "<goal>" [template=invoice|ticket|status] [noise=low|med|high]` — start a run (its thread opens in the feed channel); with a template or noise, the Health DAG as a declared graph',
  "• `status <run_id|task_id>` — the last 10 steps, graph progress and a View Trace link (of a task's run)",
  "• `stop <run_id>` — stop a run (open leases are revoked)",
  "• `mute <run_id>` / `unmute <run_id>` — stop / resume that run's feed updates (its gate cards still post)",
  '• `talk "<message>"` — open a thread in the feed channel: a run with one task for a `talk` worker, ids in the thread',
  "• `help` — this text",
].join("\n");

export type ParsedCommand =
  | { sub: "new"; goal: string; template: string | null; noise: string | null }
  | { sub: "status" | "stop" | "mute" | "unmute"; runId: string | null }
  | { sub: "talk"; message: string }
  | { sub: "help" }
  | { sub: "invalid"; why: string };

/** Parses the text after the command name (pure). */
export function parseCommand(text: string): ParsedCommand {
  const t = text.trim();
  const [head = "", ...rest] = t.split(/\s+/);
  const sub = head.toLowerCase();
  const tail = t.slice(head.length).trim();
  if (sub === "new") {
    const m = /^"([^"]{1,2000})"|^“([^”]{1,2000})”/.exec(tail);
    const goal = (m?.[1] ?? m?.[2] ?? "").trim();
    if (!goal) return { sub: "invalid", why: 'new needs a quoted goal: new "<goal>"' };
    const opts = Object.fromEntries(
      [...tail.slice(m?.[0].length ?? 0).matchAll(/(?<!\w)(\w+)=(\S+)/g)].map((x) => [x[1], x[2]]),
    ) as Record<string, string>;
    const template = opts.template ?? null;
    if (template && !(HEALTH_KINDS as readonly string[]).includes(template))
      return { sub: "invalid", why: `template is one of ${HEALTH_KINDS.join(", ")}` };
    const noise = opts.noise ?? null;
    if (noise && !(HEALTH_NOISE as readonly string[]).includes(noise))
      return { sub: "invalid", why: `noise is one of ${HEALTH_NOISE.join(", ")}` };
    return { sub: "new", goal, template, noise };
  }
  if (sub === "status" || sub === "stop" || sub === "mute" || sub === "unmute") return { sub, runId: rest[0] ?? null };
  if (sub === "talk") {
    // quotes optional: everything after `talk` is the message
    const message = tail.replace(/^["“](.*)["”]$/s, "$1").trim();
    if (message.length > TALK_MAX) return { sub: "invalid", why: `talk takes at most ${TALK_MAX} characters` };
    return { sub: "talk", message };
  }
  return { sub: "help" };
}

type CommandForm = { team_id: string; user_id: string; text: string; trigger_id?: string };

const stepLine = (s: Record<string, unknown>) => {
  const at = typeof s.at === "number" ? new Date(s.at).toISOString().slice(11, 19) : "";
  const type = String(s.type ?? s.kind ?? "step");
  const detail = ["order_id", "gate_id", "decision", "outcome"]
    .filter((k) => s[k] !== undefined)
    .map((k) => `${k}=${String(s[k])}`)
    .join(" ");
  return `• ${at} ${type}${detail ? ` ${detail}` : ""}`;
};

/** A verified slash command. */
export async function handleCommand(deps: SlackNeeds, form: CommandForm): Promise<CommandReply> {
  const inst = await deps.slackStore.byWorkspace(form.team_id);
  if (!inst) return say("Hi! This Slack workspace is not connected to Warden yet — ask a Warden admin to install it.");
  const member = inst.approvers.find((a) => a.slack_user_id === form.user_id);
  if (!member) return say("You are not on this team's Warden roster, so commands are not available to you.");
  if (
    form.trigger_id &&
    !(await deps.slackStore.firstDelivery(`cmd:${form.team_id}:${form.trigger_id}`, deps.clock.now()))
  )
    return say("Already handled.");
  const actor = { team_id: inst.team_id, subject: member.subject };
  const cmd = parseCommand(form.text);
  switch (cmd.sub) {
    case "help":
      return say(USAGE);
    case "invalid":
      return say(`${cmd.why}\n${USAGE}`);
    case "new":
      return newCommand(deps, actor, form.user_id, cmd);
    case "mute":
    case "unmute":
      return muteCommand(deps, actor, cmd.sub, cmd.runId);
    case "talk":
      return talkCommand(deps, actor, form.user_id, cmd.message);
    case "status":
    case "stop": {
      if (!cmd.runId) return say(`${cmd.sub} needs a run id.\n${USAGE}`);
      const run = deps.runs.get(cmd.runId);
      if (cmd.sub === "stop") {
        const r = await run.stop(cmd.runId, { actor, reason: `stopped from Slack by ${member.subject}` });
        if (!r.ok) return say(`Could not stop \`${cmd.runId}\`: ${why(r.error)}`);
        return say(`Stopped run \`${cmd.runId}\`.`);
      }
      const found = await viewOfRunOrTask(deps, actor, cmd.runId);
      if (!found) return say(`No run or task \`${cmd.runId}\` for this team.`);
      const { view: v, task } = found;
      const steps = v.steps.slice(-10).map(stepLine).join("\n") || "• no steps yet";
      const budget = budgetStanding(v.budget, v.budget.used, v.budget.breaches);
      const graph = v.items.length ? `\n*Graph* ${graphProgressText(v.items)}` : "";
      return say(
        `${task}*${v.run_id}* — ${v.status} — ${v.goal}\n${steps}\n*Budget* ${budget.text}${graph}\n<${await signedRunLink(deps, inst.team_id, v.run_id)}|View Trace> (opens for 15 minutes; ask again for a fresh link)`,
      );
    }
  }
}

/**
 * `status <id>`: the id as a run of the caller's team, else as a task of the team (its newest order's run; the reply
 * opens with the task's orders and their states). Null when it is neither.
 */
async function viewOfRunOrTask(deps: SlackNeeds, actor: Actor, id: string) {
  const asRun = await deps.runs.get(id).view(id, { actor });
  if (asRun.ok) return { view: asRun.value, task: "" };
  const orders = await deps.runIndex.taskOrders(actor.team_id, id, 5);
  const runId = orders[0]?.run_id;
  if (!runId) return null;
  const r = await deps.runs.get(runId).view(runId, { actor });
  if (!r.ok) return null;
  const states = orders
    .filter((o) => o.run_id === runId)
    .map((o) => `order \`${o.order_id}\` ${o.status}`)
    .join(", ");
  return { view: r.value, task: `Task \`${id}\` (${states}) of run:\n` };
}

/** `new` with a template or a noise level runs the Health DAG over one document of that kind (defaults invoice, med). */
function healthDoc(cmd: { template: string | null; noise: string | null }): HealthDoc | null {
  if (!cmd.template && !cmd.noise) return null;
  const kind = (cmd.template ?? "invoice") as HealthDoc["kind"];
  const noise = (cmd.noise ?? "med") as HealthDoc["noise"];
  return { doc_id: `${kind}-${noise}`, kind, noise };
}

type Actor = { team_id: string; subject: string };

/**
 * `new "<goal>"`: a run with its thread opened in the feed channel; with a template or a noise level, the Health DAG
 * over one document as a declared graph, admitted by the team's board first (backpressure starts nothing).
 */
async function newCommand(
  deps: SlackNeeds,
  actor: Actor,
  userId: string,
  cmd: { goal: string; template: string | null; noise: string | null },
) {
  const dag = healthDoc(cmd);
  if (dag) {
    const admitted = await deps.board.forTeam(actor.team_id).admit();
    if (!admitted.ok) return say(`Not started: ${why(admitted.error)}`);
  }
  const runId = deps.newId("run");
  const r = await deps.runs.get(runId).create(runId, {
    actor,
    run_id: runId,
    goal: cmd.goal,
    template: cmd.template,
    skills: [],
    budget: { ...DEFAULT_BUDGET, total_tokens: null },
    ...(dag ? { items: healthDagItems([dag]) } : {}),
  });
  if (!r.ok) return say(`Could not start the run: ${why(r.error)}`);
  await deps.slackOutbox.send([
    startedRoot(
      actor.team_id,
      runId,
      `Run \`${runId}\` started by <@${userId}>: ${cmd.goal}\nteam \`${actor.team_id}\` · <${await signedRunLink(deps, actor.team_id, runId)}|View Trace>`,
    ),
  ]);
  const graph = dag
    ? ` The Health DAG for one ${dag.kind} document at ${dag.noise} noise: ${r.value.items?.length ?? 0} items (extract → persist).`
    : "";
  return say(`Started run \`${runId}\` (${r.value.status}).${graph} Its thread opens in the feed channel.`);
}
const why = (e: { code: string } | { code: string; message: string }) => ("message" in e ? e.message : e.code);

/** The thread root of a run started from Slack (version 1: the feed's own root, version 0, never overwrites it). */
const startedRoot = (teamId: string, runId: string, text: string, orderId = ""): SlackPost => ({
  kind: "post",
  team_id: teamId,
  key: feedKeys.root(runId),
  channel: "feed",
  text,
  metadata: { event_type: "warden_run", event_payload: { team_id: teamId, run_id: runId, order_id: orderId } },
  version: 1,
});

/**
 * `mute <run_id>` / `unmute <run_id>`: a run of the caller's team only (its object answers the view). Muting stops its
 * feed posts and edits (gate cards still post); unmuting re-queues the root and the status as they stand now.
 */
async function muteCommand(deps: SlackNeeds, actor: Actor, sub: "mute" | "unmute", runId: string | null) {
  if (!runId) return say(`${sub} needs a run id.\n${USAGE}`);
  const view = await deps.runs.get(runId).view(runId, { actor });
  if (!view.ok) return say(`No run \`${runId}\` for this team.`);
  const now = deps.clock.now();
  if (sub === "mute") {
    await deps.slackFeed.setMuted(actor.team_id, runId, { by: actor.subject }, now);
    return say(`Muted the feed of run \`${runId}\`: no more updates in its thread (its gates still post cards).`);
  }
  await deps.slackFeed.setMuted(actor.team_id, runId, null, now);
  const feed = await deps.slackFeed.feedRun(runId);
  const run = { team_id: actor.team_id, run_id: runId };
  const catchUp = [feedRootMessage(run, undefined, await signedRunLink(deps, actor.team_id, runId))];
  if (feed?.steps.length) catchUp.push(feedStatusMessage(run, feed.steps, feed.version));
  await deps.slackOutbox.send(catchUp);
  return say(`Unmuted the feed of run \`${runId}\`.`);
}

/**
 * `talk "<message>"`: a run (goal: the message) with one work order for a worker with the `talk` skill, its thread
 * opened in the feed channel with a reply naming the run and the task it spawned. The message is stored, so it passes
 * the same guard as stored order text (no secrets or personal data); a refused message starts nothing.
 */
async function talkCommand(deps: SlackNeeds, actor: Actor, userId: string, message: string) {
  const text = message || "(no message)";
  const refused = await talkRefusal(message);
  if (refused) return say(`Not started: ${refused}.`);
  const opened = await openTalkRun(deps, actor, userId, message);
  if (!opened.ok) return say(`Could not start the talk: ${opened.why}`);
  const { runId, order } = opened.value;
  const ids = `team \`${actor.team_id}\` · run \`${runId}\` · task \`${order.task_id}\` · order \`${order.order_id}\``;
  await deps.slackOutbox.send([
    startedRoot(
      actor.team_id,
      runId,
      `<@${userId}> opened a talk: ${text}\n${ids} · <${await signedRunLink(deps, actor.team_id, runId)}|View Trace>`,
      order.order_id,
    ),
    {
      kind: "post",
      team_id: actor.team_id,
      key: `talk:${runId}`,
      channel: "feed",
      thread_key: feedKeys.root(runId),
      text: `Started run \`${runId}\`; it spawned task \`${order.task_id}\` (order \`${order.order_id}\`) for a \`talk\` worker, whose steps follow in this thread.`,
      metadata: {
        event_type: "warden_run",
        event_payload: { team_id: actor.team_id, run_id: runId, order_id: order.order_id, task_id: order.task_id },
      },
      version: 1,
    },
  ]);
  return say(`Opened a talk thread in the feed channel: run \`${runId}\`, task \`${order.task_id}\`.`);
}
