// Interactivity use-cases: card clicks and the hard-gate note modal become ApprovalAction v1 on the run's decide_gate
// operation (the API's approval path); roster refusals are audited; answers go to the clicker ephemerally.

import { REVIEW_PATCH } from "../../../contracts/approval-action.v1";
import { SLACK_CHANGE_POLICY_KEY } from "../gates/domain";
import { guardStored } from "../runs";
import { onAckClick } from "./ack-click";
import { ACK_ACTION, CARD_ACTIONS, type CardActionId, type CardValue, deciderName, noteModal } from "./blocks";
import type { SlackNeeds } from "./needs";
import { hostOf, responseUrlAllowed } from "./response-url";
import type { SlackApprover, SlackInstallation, SlackRole, SlackSettings } from "./store/slack-store-port";

/** What Slack's interactivity endpoint should answer with (an empty 200 unless a modal needs errors). */
export type InteractionReply = { status: 200; body: Record<string, unknown> | null };
const EMPTY: InteractionReply = { status: 200, body: null };

export type Payload = {
  type?: string;
  team?: { id?: string };
  user?: { id?: string };
  trigger_id?: string;
  response_url?: string;
  /** the message the click came from (block_actions): what a used-up response_url's answer updates instead */
  container?: { channel_id?: string; message_ts?: string };
  /** the clicked message as Slack shows it (block_actions on a message): the Acknowledge button updates its blocks */
  message?: { blocks?: unknown[] };
  actions?: { action_id?: string; value?: string; action_ts?: string }[];
  view?: { callback_id?: string; private_metadata?: string; state?: { values?: Record<string, any> } };
};

export const parseValue = (raw: string | undefined): CardValue | null => {
  try {
    const v = JSON.parse(raw ?? "");
    return typeof v?.run_id === "string" && typeof v?.op_id === "string" && typeof v?.policy_key === "string"
      ? (v as CardValue)
      : null;
  } catch {
    return null;
  }
};

export async function tell(deps: SlackNeeds, teamId: string, p: Payload, text: string) {
  if (!p.response_url) return;
  if (!responseUrlAllowed(p.response_url, deps.config.SLACK_API_BASE_URL)) {
    await deps.auditLog.append([
      {
        id: deps.newId("aud"),
        teamId,
        actor: `slack:${p.user?.id ?? "unknown"}`,
        action: "slack.response_url_refused",
        subjectType: "slack_workspace",
        subjectId: p.team?.id ?? "",
        // the host only: the URL itself may carry a token
        metadata: { host: hostOf(p.response_url) },
        createdAt: deps.clock.now(),
      },
    ]);
    return;
  }
  const { channel_id: channel, message_ts: ts } = p.container ?? {};
  const message = channel && ts ? { message: { channel, ts } } : {};
  await deps.slackOutbox.send([{ kind: "respond", team_id: teamId, response_url: p.response_url, text, ...message }]);
}

const RANK: Record<SlackRole, number> = { approver: 1, admin: 2 };

/** The least roster role that may decide this gate: the installation's per-kind setting; Slack changes need admin. */
export function requiredRole(settings: SlackSettings, gate: Pick<CardValue, "kind" | "policy_key">): SlackRole {
  if (gate.policy_key === SLACK_CHANGE_POLICY_KEY) return "admin";
  return (
    (gate.kind === "hard" ? settings.roles?.hard : gate.kind === "soft" ? settings.roles?.soft : undefined) ??
    "approver"
  );
}

/**
 * The roster entry of a Slack user allowed to act on this gate (by default: decide it), or an audited refusal (with
 * what to tell them).
 */
export async function approverOf(
  deps: SlackNeeds,
  inst: SlackInstallation,
  userId: string,
  what: CardValue & { action: string },
  needed: SlackRole = requiredRole(inst.settings, what),
): Promise<{ ok: true; approver: SlackApprover } | { ok: false; told: string }> {
  const member = inst.approvers.find((a) => a.slack_user_id === userId);
  if (member && RANK[member.role] >= RANK[needed]) return { ok: true, approver: member };
  const why = member
    ? `role ${member.role} may not decide ${what.kind} gates of ${what.policy_key} (needs ${needed})`
    : "not on the team's approver roster";
  const now = deps.clock.now();
  await deps.auditLog.append([
    {
      id: deps.newId("aud"),
      teamId: inst.team_id,
      actor: `slack:${userId}`,
      action: "slack.approval_refused",
      subjectType: "gate",
      subjectId: String(what.gate_id ?? what.run_id ?? ""),
      metadata: { why, workspace_id: inst.workspace_id, ...what },
      createdAt: now,
    },
  ]);
  const nothing = what.action === ACK_ACTION ? "Nothing was acknowledged." : "Nothing was decided.";
  const told = member
    ? `Your role (${member.role}) cannot decide this ${what.kind} gate; ask a Warden ${needed} on the roster. ${nothing}`
    : `You are not on this team's approver roster; ${nothing.charAt(0).toLowerCase()}${nothing.slice(1)}`;
  return { ok: false, told };
}

/** Applies one decision through the run's decide_gate; returns the text to tell the clicker, or null when applied. A
 * corrected input goes with the digest of the card the approver saw. */
async function decide(
  deps: SlackNeeds,
  inst: SlackInstallation,
  approver: SlackApprover,
  value: CardValue,
  decision: (typeof CARD_ACTIONS)[CardActionId]["decision"],
  note: string | null,
  patch?: Record<string, unknown>,
): Promise<string | null> {
  const actor = { team_id: inst.team_id, subject: approver.subject };
  const run = deps.runs.get(value.run_id);
  const reply = await run.decide_gate(value.run_id, {
    actor,
    op_id: value.op_id,
    policy_key: value.policy_key,
    decision,
    note,
    channel: "slack",
    ...(patch ? { patch, ...(value.digest ? { digest: value.digest } : {}) } : {}),
  });
  if (reply.ok) return null;
  if (reply.error.code === "conflict" && value.gate_id) {
    const told = await alreadyDecided(deps, actor, value);
    if (told) return told;
  }
  if (reply.error.code === "forbidden") return "You cannot approve a gate you opened yourself.";
  return `Not applied: ${"message" in reply.error ? reply.error.message : reply.error.code}`;
}

/** What to tell a clicker when the card's gate is no longer pending (null while it is): what, by whom, when. */
export async function alreadyDecided(
  deps: SlackNeeds,
  actor: { team_id: string; subject: string },
  value: CardValue,
): Promise<string | null> {
  if (!value.gate_id) return null;
  const gate = await deps.runs.get(value.run_id).get_gate(value.run_id, { actor, gate_id: value.gate_id });
  if (!gate.ok || gate.value.status === "pending") return null;
  const g = gate.value;
  const at = g.decided_at ? new Date(g.decided_at).toISOString().replace(/\.\d{3}Z$/, "Z") : "an earlier time";
  return `This gate was already decided (${g.status}) by ${deciderName(g.decided_by ?? "someone")} at ${at}. Nothing more to do.`;
}

/** A verified interactivity payload (block_actions from a card, view_submission from the note modal). */
export async function handleInteraction(deps: SlackNeeds, p: Payload): Promise<InteractionReply> {
  const workspace = p.team?.id ?? "";
  const inst = workspace ? await deps.slackStore.byWorkspace(workspace) : null;
  if (!inst) {
    if (p.response_url)
      await tell(deps, workspace, p, "This Slack workspace is not connected to Warden yet; ask an admin.");
    return EMPTY;
  }
  if (p.type === "block_actions") return onCardClick(deps, inst, p);
  if (p.type === "view_submission" && p.view?.callback_id === "gate_note") return onNoteSubmit(deps, inst, p);
  return EMPTY;
}

/** A card button: a soft gate is decided at once (once per click); a hard gate opens the note modal first. */
async function onCardClick(deps: SlackNeeds, inst: SlackInstallation, p: Payload): Promise<InteractionReply> {
  const userId = p.user?.id ?? "";
  const action = p.actions?.[0];
  const id = action?.action_id as CardActionId | undefined;
  const value = parseValue(action?.value);
  if (action?.action_id === ACK_ACTION && value) return onAckClick(deps, inst, p, value);
  if (!action || !id || !Object.hasOwn(CARD_ACTIONS, id) || !value) return EMPTY;
  // Slack's payload identity: the same click delivered again (retry, duplicate) does nothing more.
  const key = `act:${inst.workspace_id}:${userId}:${action.action_ts ?? p.trigger_id ?? ""}:${id}`;
  const allowed = await approverOf(deps, inst, userId, { ...value, action: id });
  if (!allowed.ok) {
    await tell(deps, inst.team_id, p, allowed.told);
    return EMPTY;
  }
  const { decision } = CARD_ACTIONS[id];
  if (value.kind === "hard") {
    // a click on a card whose gate is already decided is told so at once, not asked for a note first
    const decided = await alreadyDecided(deps, { team_id: inst.team_id, subject: allowed.approver.subject }, value);
    if (decided) {
      await tell(deps, inst.team_id, p, decided);
      return EMPTY;
    }
    // A hard gate needs a justification: the modal's submission carries the decision (trigger ids last 3 s).
    if (!p.trigger_id) return EMPTY;
    const opened = await deps.slackApi.call("views.open", inst.bot_token, {
      trigger_id: p.trigger_id,
      view: noteModal({ ...value, decision, ...(p.response_url ? { response_url: p.response_url } : {}) }),
    });
    if (!opened.ok) await tell(deps, inst.team_id, p, "Could not open the note dialog; try again.");
    return EMPTY;
  }
  if (!(await deps.slackStore.firstDelivery(key, deps.clock.now()))) return EMPTY;
  let told: string | null;
  try {
    told = await decide(deps, inst, allowed.approver, value, decision, null);
  } catch (e) {
    // Not applied (the run object was unreachable): let Slack's retry of this click try again.
    await deps.slackStore.forgetDelivery(key);
    throw e;
  }
  if (told) await tell(deps, inst.team_id, p, told);
  return EMPTY;
}

/** The note modal of a hard gate: a justification of at least 3 characters, then the decision it carries. */
async function onNoteSubmit(deps: SlackNeeds, inst: SlackInstallation, p: Payload): Promise<InteractionReply> {
  const meta = (() => {
    try {
      return JSON.parse(p.view?.private_metadata ?? "") as CardValue & { decision: string; response_url?: string };
    } catch {
      return null;
    }
  })();
  const value = meta && parseValue(JSON.stringify(meta));
  const decision = Object.values(CARD_ACTIONS).find((a) => a.decision === meta?.decision)?.decision;
  if (!meta || !value || !decision) return EMPTY;
  const noteError = (note: string): InteractionReply => ({
    status: 200,
    body: { response_action: "errors", errors: { note } },
  });
  const note = String(p.view?.state?.values?.note?.note?.value ?? "").trim();
  if (note.length < 3) return noteError("A hard gate needs a justification.");
  const patch = await correctedInput(String(p.view?.state?.values?.patch?.patch?.value ?? ""));
  if (!patch.ok) return { status: 200, body: { response_action: "errors", errors: { patch: patch.error } } };
  const allowed = await approverOf(deps, inst, p.user?.id ?? "", { ...value, action: "note_submit" });
  if (!allowed.ok) return noteError(allowed.told);
  const told = await decide(deps, inst, allowed.approver, value, decision, note, patch.value);
  // the server's refusal of a corrected input is told on that field; anything else on the note
  if (told)
    return { status: 200, body: { response_action: "errors", errors: { [patch.value ? "patch" : "note"]: told } } };
  return { status: 200, body: { response_action: "clear" } };
}

/**
 * The note modal's "corrected input" (a dead_letter_review's approve_retry): empty = none; else a JSON object of at most
 * 64 KiB that passes the stored-text guard, as the API checks a patch. Told at once in the modal, nothing decided.
 */
export async function correctedInput(
  raw: string,
): Promise<{ ok: true; value?: Record<string, unknown> } | { ok: false; error: string }> {
  const text = raw.trim();
  if (text === "") return { ok: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Not valid JSON: give a JSON object such as {"total": 210}.' };
  }
  const patch = REVIEW_PATCH.safeParse(parsed);
  if (!patch.success || Array.isArray(parsed))
    return { ok: false, error: "The corrected input must be a JSON object (a merge patch) of at most 64 KiB." };
  try {
    await guardStored({ input_json: patch.data });
  } catch {
    return { ok: false, error: "The corrected input holds a secret or personal data; remove it. Nothing was decided." };
  }
  return { ok: true, value: patch.data };
}
