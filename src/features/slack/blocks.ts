// Block Kit for the Slack front door (pure): gate approval cards (open and decided), the note modal, command replies.
import { slackDate } from "../../lib/time-text";
import { DEAD_LETTER_REVIEW } from "../gates/domain";
import type { SlackOutboxMessage } from "./store/slack-store-port";

/** What a card shows of a gate: ids, policy key, reason bucket, a trace link; context only when the team shared it. */
export type GateCardFacts = {
  team_id: string;
  run_id: string;
  gate_id: string;
  op_id: string;
  policy_key: string;
  /** why the gate is not automatic, as a short bucket (the rule id, or fail_closed) */
  reason_bucket: string;
  kind: string;
  opened_by?: string;
  deadline_at?: number | null;
  order_id?: string;
  /** the gate's content digest (gate.opened carries it) */
  digest?: string;
  /** a signed view URL of the run's trace, anchored at this gate's step */
  trace_link: string;
  /** guard-passed context fields, present only when the team opted this policy key in */
  shared_context?: Record<string, string>;
  /** an enforce promotion's checks (replay changes and acks needed, parity, conformance), Warden's own line */
  promotion_checks?: string;
  /** a dead_letter_review's evidence, guard-passed: the SchemaGuard reason, the failing fields, the artifacts */
  review?: ReviewFacts;
};
/** What a dead-letter review card shows: why the output was refused, input → output of its failing fields (at most
 * five, each guard-passed and clipped), and a signed link to the cited artifacts (one: the artifact; more: the trace). */
export type ReviewFacts = { reason: string; excerpt: string[]; artifacts_link?: string; artifact_count: number };
export type GateDecisionFacts = {
  status: string;
  decision: string;
  decided_by: string;
  decided_at: number;
  /** what the gate guards (order, dead_letter, budget, deploy): what the decision did is said in its words */
  subject_type?: string;
};

/** The buttons a card shows; the value carries what ApprovalAction v1 needs. */
export const CARD_ACTIONS = {
  gate_approve: { label: "Approve", decision: "approve_retry", style: "primary" },
  gate_skip: { label: "Skip", decision: "approve_skip", style: undefined },
  gate_abort: { label: "Abort", decision: "approve_abort", style: "danger" },
  gate_deny: { label: "Deny", decision: "deny", style: "danger" },
} as const;
export type CardActionId = keyof typeof CARD_ACTIONS;
/** The Acknowledge button of a hard gate's card: "I am on it" (the escalation pings pause), not a decision. */
export const ACK_ACTION = "gate_ack";
/** Content versions of a gate card: an older one never overwrites a newer (opened < acknowledged < decided). */
export const CARD_VERSION = { opened: 1, acknowledged: 2, decided: 3 } as const;
export type CardValue = {
  run_id: string;
  op_id: string;
  policy_key: string;
  kind: string;
  gate_id: string;
  /** a review card's gate digest: what the approver saw, sent with a corrected input */
  digest?: string;
};

export const traceUrl = (publicUrl: string, runId: string) =>
  `${publicUrl.replace(/\/$/, "")}/runs/${encodeURIComponent(runId)}/trace`;
const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** the logical outbox key of a gate's card: one message per gate, updated in place */
export const cardKey = (gateId: string) => `gate:${gateId}`;

function header(f: GateCardFacts, title = `Approval needed: ${f.policy_key}`): unknown[] {
  const shared = Object.entries(f.shared_context ?? {});
  const lines = [
    `*Run* \`${esc(f.run_id)}\` · op \`${esc(f.op_id)}\`${f.order_id ? ` · order \`${esc(f.order_id)}\`` : ""}`,
    `*Policy* \`${esc(f.policy_key)}\` (${esc(f.kind)} gate) · reason \`${esc(f.reason_bucket)}\``,
    ...(f.opened_by ? [`*Asked by* ${esc(f.opened_by)}`] : []),
    ...(f.kind === "soft" && f.deadline_at ? [`*Auto-approves* ${slackDate(f.deadline_at)}`] : []),
    ...(f.promotion_checks ? [`*Promotion checks* ${esc(f.promotion_checks)}`] : []),
    ...(shared.length
      ? ["*Context* (shared by the team's setting)", ...shared.map(([k, v]) => `• ${esc(k)}: ${esc(v)}`)]
      : []),
    ...(f.review ? reviewLines(f.review) : []),
    `<${f.trace_link}|View trace>`,
  ];
  return [
    { type: "header", text: { type: "plain_text", text: title.slice(0, 150) } },
    { type: "section", text: { type: "mrkdwn", text: lines.join("\n") } },
  ];
}

function reviewLines(r: ReviewFacts): string[] {
  return [
    `*SchemaGuard* ${esc(r.reason)}`,
    ...(r.excerpt.length ? ["*Failing fields* (input → output)", ...r.excerpt.map((l) => `• ${esc(l)}`)] : []),
    `*Artifacts* ${r.artifact_count === 0 ? "none cited" : r.artifact_count}`,
  ];
}

/** A review card's link buttons: Open Artifacts (when the completion cited any) and View Trace, both signed. */
function linkButtons(f: GateCardFacts): Record<string, unknown>[] {
  if (!f.review) return [];
  const link = (action_id: string, text: string, url: string) => ({
    type: "button",
    action_id,
    text: { type: "plain_text", text },
    url,
  });
  return [
    ...(f.review.artifacts_link ? [link("open_artifacts", "Open Artifacts", f.review.artifacts_link)] : []),
    link("view_trace", "View Trace", f.trace_link),
  ];
}

/** The card of a pending gate: header, run, reason, who asked, the soft deadline, the buttons. */
export function openCard(f: GateCardFacts): SlackOutboxMessage {
  const value: CardValue = {
    run_id: f.run_id,
    op_id: f.op_id,
    policy_key: f.policy_key,
    kind: f.kind,
    gate_id: f.gate_id,
    ...(f.review && f.digest ? { digest: f.digest } : {}),
  };
  const buttons: Record<string, unknown>[] = (Object.keys(CARD_ACTIONS) as CardActionId[]).map((id) => {
    const a = CARD_ACTIONS[id];
    return {
      type: "button",
      action_id: id,
      text: { type: "plain_text", text: a.label },
      value: JSON.stringify(value),
      ...(a.style ? { style: a.style } : {}),
    };
  });
  // a hard gate waits for a person under an SLA: someone can say they are on it before deciding
  if (f.kind === "hard")
    buttons.push({
      type: "button",
      action_id: ACK_ACTION,
      text: { type: "plain_text", text: "Acknowledge" },
      value: JSON.stringify(value),
    });
  return {
    kind: "post",
    team_id: f.team_id,
    key: cardKey(f.gate_id),
    channel: "approvals",
    text: `Approval needed: ${f.policy_key} on run ${f.run_id}`,
    blocks: [...header(f), { type: "actions", block_id: "gate_actions", elements: [...buttons, ...linkButtons(f)] }],
    metadata: {
      event_type: "warden_gate",
      event_payload: { team_id: f.team_id, run_id: f.run_id, gate_id: f.gate_id, order_id: f.order_id ?? "" },
    },
    version: CARD_VERSION.opened,
  };
}

/** "Approved", "Denied"…: a gate status as a card's header says it. */
const STATUS_WORD: Record<string, string> = {
  approved: "Approved",
  auto_allowed: "Auto-approved",
  denied: "Denied",
  aborted: "Aborted",
  skipped: "Skipped",
};

/** What an allowing decision did, by what the gate guards (a budget gate's approval raises the budget, not a retry). */
const ALLOWED_EFFECT: Record<string, string> = {
  order: "the order is retried with a stricter prompt",
  dead_letter: "the dead letter's order is reissued once",
  budget: "the run's budget is raised",
  deploy: "the policy profile is deployed",
};
/** What a refusing decision did, by what the gate guards. */
const REFUSED_EFFECT: Record<string, string> = {
  order: "the order is dead-lettered",
  dead_letter: "the dead letter stays",
  budget: "the budget stays as it was",
  deploy: "the profile is not deployed",
};

/** What the decision did, in words (empty when the event did not say what the gate guards). */
export function decisionEffect(d: Pick<GateDecisionFacts, "decision" | "subject_type">): string {
  const subject = d.subject_type ?? "";
  if (d.decision === "skip") return subject === "order" ? "the order is skipped" : "";
  if (["retry", "allow", "auto_allow"].includes(d.decision)) return ALLOWED_EFFECT[subject] ?? "";
  return REFUSED_EFFECT[subject] ?? "";
}

/** Who decided, in words a person reads ("the soft-gate timer", not "timer"). */
export const deciderName = (by: string) => (by === "policy" ? "policy" : by === "timer" ? "the soft-gate timer" : by);

/**
 * The same card once decided: its header says what was decided ("Approved: budget_increase"), the original reason
 * stays, no buttons, and a line says by whom, when and what the decision did.
 */
export function decidedCard(f: GateCardFacts, d: GateDecisionFacts): SlackOutboxMessage {
  const by = deciderName(d.decided_by);
  const word = STATUS_WORD[d.status] ?? d.status.replaceAll("_", " ");
  const effect = decisionEffect(d);
  const outcome = `*${word}* by ${esc(by)} ${slackDate(d.decided_at)}${effect ? ` — ${effect}` : ""}`;
  return {
    kind: "post",
    team_id: f.team_id,
    key: cardKey(f.gate_id),
    channel: "approvals",
    text: `${word}: ${f.policy_key} on run ${f.run_id} by ${by}${effect ? ` (${effect})` : ""}`,
    blocks: [
      ...header(f, `${word}: ${f.policy_key}`),
      { type: "context", elements: [{ type: "mrkdwn", text: outcome }] },
    ],
    version: CARD_VERSION.decided,
  };
}

/** Who acknowledged an open gate, when, and when its resolve SLA falls due. */
export type AckFacts = { by: string; slack_user_id?: string; at: number; resolve_due_at: number | null };

/**
 * The card as Slack shows it (the clicked message's blocks), acknowledged: the Acknowledge button gone, a line saying
 * who is on it since when and until when the pings pause. The decision buttons stay.
 */
export function acknowledgedBlocks(blocks: readonly unknown[], ack: AckFacts): unknown[] {
  const due =
    ack.resolve_due_at === null
      ? ""
      : ` — escalation pings paused until the resolve SLA, ${slackDate(ack.resolve_due_at)}`;
  const who = ack.slack_user_id ? `<@${ack.slack_user_id}> (${esc(ack.by)})` : esc(ack.by);
  const line = {
    type: "context",
    elements: [{ type: "mrkdwn", text: `:eyes: *Acknowledged* by ${who} ${slackDate(ack.at)}${due}` }],
  };
  const out: unknown[] = [];
  for (const b of blocks) {
    const block = b as { type?: string; block_id?: string; elements?: { action_id?: string }[] };
    if (block.type === "context" && JSON.stringify(block).includes("*Acknowledged*")) continue;
    if (block.type === "actions" && Array.isArray(block.elements)) {
      out.push(line, { ...block, elements: block.elements.filter((e) => e.action_id !== ACK_ACTION) });
      continue;
    }
    out.push(b);
  }
  return out.includes(line) ? out : [...out, line];
}

/** The open card rebuilt from the gate's facts, acknowledged (an acknowledgement made through the API or CLI). */
export function acknowledgedCard(f: GateCardFacts, ack: AckFacts): SlackOutboxMessage {
  const open = openCard(f);
  return {
    kind: "post",
    team_id: f.team_id,
    key: open.kind === "post" ? open.key : cardKey(f.gate_id),
    channel: "approvals",
    text: `Acknowledged by ${ack.by}: ${f.policy_key} on run ${f.run_id}`,
    blocks: acknowledgedBlocks(open.kind === "post" ? (open.blocks ?? []) : [], ack),
    version: CARD_VERSION.acknowledged,
  };
}

/** The modal any hard-gate decision opens (a hard gate is decided by a human who says why): a required note. */
export function noteModal(value: CardValue & { decision: string; response_url?: string }): unknown {
  const label = Object.values(CARD_ACTIONS).find((a) => a.decision === value.decision)?.label ?? "Decide";
  return {
    type: "modal",
    callback_id: "gate_note",
    private_metadata: JSON.stringify(value),
    title: { type: "plain_text", text: `${label}: hard gate` },
    submit: { type: "plain_text", text: label },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: `\`${esc(value.policy_key)}\` on run \`${esc(value.run_id)}\`` },
      },
      {
        type: "input",
        block_id: "note",
        label: { type: "plain_text", text: "Justification" },
        element: { type: "plain_text_input", action_id: "note", multiline: true, min_length: 3, max_length: 2000 },
      },
      ...(value.policy_key === DEAD_LETTER_REVIEW && value.decision === "approve_retry" ? [correctedInput] : []),
    ],
  };
}

/** Edit and retry: an optional JSON merge patch to the order's input_json, checked when the modal is submitted. */
const correctedInput = {
  type: "input",
  block_id: "patch",
  optional: true,
  label: { type: "plain_text", text: "Corrected input (optional)" },
  hint: {
    type: "plain_text",
    text: 'A JSON merge patch to the order\'s input_json, e.g. {"total": 210}; null removes a field.',
  },
  element: { type: "plain_text_input", action_id: "patch", multiline: true, max_length: 3000 },
};
