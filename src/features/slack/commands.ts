// Slash-command use-cases (`/warden new|status|stop|help`, any command name): the Slack user mapped to a Warden subject
// through the roster, each subcommand one run operation; the reply is the ephemeral answer Slack shows at once.
import { DEFAULT_BUDGET } from "../runs";
import { traceUrl } from "./blocks";
import type { SlackNeeds } from "./needs";

export type CommandReply = { response_type: "ephemeral" | "in_channel"; text: string };
const say = (text: string): CommandReply => ({ response_type: "ephemeral", text });

export const USAGE = [
  "Usage:",
  '• `new "<goal>" [template=invoice|ticket|status] [noise=low|med|high]` — start a run (its thread opens in the feed channel)',
  "• `status <run_id>` — the last 10 steps and a View Trace link",
  "• `stop <run_id>` — stop a run (open leases are revoked)",
  "• `help` — this text",
].join("\n");

export type ParsedCommand =
  | { sub: "new"; goal: string; template: string | null; noise: string | null }
  | { sub: "status" | "stop"; runId: string | null }
  | { sub: "help" }
  | { sub: "unsupported"; name: string }
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
      [...tail.slice(m?.[0].length ?? 0).matchAll(/(\w+)=(\S+)/g)].map((x) => [x[1], x[2]]),
    ) as Record<string, string>;
    const template = opts.template ?? null;
    if (template && !["invoice", "ticket", "status"].includes(template))
      return { sub: "invalid", why: "template is one of invoice, ticket, status" };
    const noise = opts.noise ?? null;
    if (noise && !["low", "med", "high"].includes(noise))
      return { sub: "invalid", why: "noise is one of low, med, high" };
    return { sub: "new", goal, template, noise };
  }
  if (sub === "status" || sub === "stop") return { sub, runId: rest[0] ?? null };
  if (sub === "" || sub === "help") return { sub: "help" };
  if (sub === "mute" || sub === "talk") return { sub: "unsupported", name: sub };
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
    case "unsupported":
      return say(`\`${cmd.name}\` is not available yet.\n${USAGE}`);
    case "new": {
      const runId = deps.newId("run");
      const r = await deps.runs.get(runId).create(runId, {
        actor,
        run_id: runId,
        goal: cmd.goal,
        template: cmd.template,
        skills: [],
        budget: { ...DEFAULT_BUDGET, total_tokens: null },
      });
      if (!r.ok) return say(`Could not start the run: ${"message" in r.error ? r.error.message : r.error.code}`);
      await deps.slackOutbox.send([
        {
          kind: "post",
          team_id: inst.team_id,
          key: `run:${runId}`,
          channel: "feed",
          text: `Run \`${runId}\` started by <@${form.user_id}>: ${cmd.goal}\nteam \`${inst.team_id}\` · <${traceUrl(deps.config.PUBLIC_URL, runId)}|View Trace>`,
          metadata: { event_type: "warden_run", event_payload: { team_id: inst.team_id, run_id: runId, order_id: "" } },
          version: 1,
        },
      ]);
      return say(`Started run \`${runId}\` (${r.value.status}). Its thread opens in the feed channel.`);
    }
    case "status":
    case "stop": {
      if (!cmd.runId) return say(`${cmd.sub} needs a run id.\n${USAGE}`);
      const run = deps.runs.get(cmd.runId);
      if (cmd.sub === "stop") {
        const r = await run.stop(cmd.runId, { actor, reason: `stopped from Slack by ${member.subject}` });
        if (!r.ok)
          return say(`Could not stop \`${cmd.runId}\`: ${"message" in r.error ? r.error.message : r.error.code}`);
        return say(`Stopped run \`${cmd.runId}\`.`);
      }
      const r = await run.view(cmd.runId, { actor });
      if (!r.ok) return say(`No run \`${cmd.runId}\` for this team.`);
      const v = r.value;
      const steps = v.steps.slice(-10).map(stepLine).join("\n") || "• no steps yet";
      return say(
        `*${v.run_id}* — ${v.status} — ${v.goal}\n${steps}\n<${traceUrl(deps.config.PUBLIC_URL, v.run_id)}|View Trace>`,
      );
    }
  }
}
