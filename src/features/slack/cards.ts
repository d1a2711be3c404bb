// gate.opened / gate.decided / gate.escalated / gate.acknowledged from the EVENTS queue → private approval cards (updated
// in place) and their escalation pings on SLACK_OUTBOX, for teams with Slack only.

import { DEAD_LETTER_REVIEW } from "../gates/domain";
import { metadataFields, scanFields } from "../memory";
import { acknowledgedCard, cardKey, decidedCard, type GateCardFacts, openCard, type ReviewFacts } from "./blocks";
import { escalationMessage } from "./escalation";
import { signedArtifactLink, signedRunLink } from "./links";
import type { SlackCardNeeds } from "./needs";
import type { SlackInstallation, SlackOutboxMessage } from "./store/slack-store-port";

type GateEventLike = { type: string; team_id: string; run_id?: string | null; occurred_at: number } & Record<
  string,
  unknown
>;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** What the impure shell found out for one event: the trace link and the context fields a team let through. */
export type CardExtras = {
  trace_link: string;
  shared_context?: Record<string, string>;
  escalation_target?: string;
  review?: ReviewFacts;
};

/** The longest shared context value shown on a card (a card is a summary, not a dump). */
const MAX_SHARED_VALUE = 200;

/**
 * The card messages for a batch of gate events (pure): auto and deny gates get no card, nor gates of teams not in
 * `extras` (no Slack installation). Gate context never enters a card unless `extras` carries shared fields, except
 * a policy_deploy gate's `promotion_checks` line, which Warden wrote itself (counts and class names, no caller data).
 */
export function gateCardMessages(events: GateEventLike[], extras: (e: GateEventLike) => CardExtras | null) {
  const out: SlackOutboxMessage[] = [];
  for (const e of events) {
    const facts = factsOf(e);
    const extra = facts && extras(e);
    if (!facts || !extra) continue;
    const withExtras: GateCardFacts = {
      ...facts,
      trace_link: extra.trace_link,
      ...(extra.shared_context ? { shared_context: extra.shared_context } : {}),
      ...(extra.review ? { review: extra.review } : {}),
    };
    if (e.type === "gate.opened") out.push(openCard(withExtras));
    else if (e.type === "gate.escalated" && (e.level === 1 || e.level === 2))
      out.push(escalationMessage(withExtras, e.level, extra.escalation_target));
    else if (e.type === "gate.acknowledged" && typeof e.acked_by === "string" && typeof e.acked_at === "number")
      out.push(
        acknowledgedCard(withExtras, {
          by: e.acked_by,
          at: e.acked_at,
          resolve_due_at: typeof e.resolve_due_at === "number" ? e.resolve_due_at : null,
        }),
      );
    else if (e.type === "gate.decided")
      out.push(
        decidedCard(withExtras, {
          status: str(e.status) ?? "decided",
          decision: str(e.decision) ?? "",
          decided_by: str(e.decided_by) ?? "someone",
          decided_at: e.occurred_at,
          ...(str(e.subject_type) ? { subject_type: str(e.subject_type) } : {}),
        }),
      );
  }
  return out;
}

/** The card facts of a soft or hard gate event; null for auto/deny gates and malformed events. */
function factsOf(e: GateEventLike): Omit<GateCardFacts, "trace_link"> | null {
  const kind = str(e.kind);
  const gate_id = str(e.gate_id);
  const run_id = str(e.run_id);
  if ((kind !== "soft" && kind !== "hard") || !gate_id || !run_id) return null;
  return {
    team_id: e.team_id,
    run_id,
    gate_id,
    op_id: str(e.op_id) ?? "",
    policy_key: str(e.policy_key) ?? "",
    reason_bucket: reasonBucket(str(e.rule_id)),
    kind,
    ...(str(e.opened_by) ? { opened_by: str(e.opened_by) } : {}),
    deadline_at: typeof e.deadline_at === "number" ? e.deadline_at : null,
    ...(str(e.order_id) ? { order_id: str(e.order_id) } : {}),
    ...promotionChecks(e),
    ...(str(e.digest) ? { digest: str(e.digest) } : {}),
  };
}

/** An enforce promotion's one-line checks summary (docs/learning.md), shown on its deploy gate's card. */
function promotionChecks(e: GateEventLike): { promotion_checks?: string } {
  const context = e.context;
  if (e.policy_key !== "policy_deploy" || !context || typeof context !== "object") return {};
  const line = str((context as Record<string, unknown>).promotion_checks);
  return line ? { promotion_checks: line.slice(0, MAX_SHARED_VALUE) } : {};
}

/**
 * Why the gate is not automatic, in a word a card may show: the rule that routed it, or `fail_closed` when no rule
 * matched (the rule's own text may quote its conditions, so the card names the rule instead of quoting it).
 */
export function reasonBucket(ruleId: string | undefined): string {
  if (!ruleId || ruleId === "default.unknown_policy_key") return "fail_closed";
  return ruleId.startsWith("builtin.") ? ruleId.slice("builtin.".length) : ruleId;
}

/**
 * The context fields a card may show when the team opted the gate's policy key in: top-level scalars only, each one
 * passing the memory guard (no secrets, PII or raw URLs), clipped. Anything nested or refused stays out.
 */
export async function guardedContext(context: unknown): Promise<Record<string, string>> {
  if (!context || typeof context !== "object" || Array.isArray(context)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(context as Record<string, unknown>)) {
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") continue;
    const verdict = await scanFields(metadataFields("context", { [k]: v }));
    if (verdict.ok) out[k.slice(0, 64)] = String(v).slice(0, MAX_SHARED_VALUE);
  }
  return out;
}

/** The most failing fields a review card lists. */
const MAX_EXCERPT_FIELDS = 5;
const asObject = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * A dead_letter_review card's evidence from its gate context: the reason and the output's top-level scalar fields
 * beside the input's (each guard-passed like shared context: no secrets, PII or raw URLs reach Slack), and a signed
 * link to the cited artifacts (one artifact opens itself; several open the trace, which lists each step's).
 */
export async function reviewFacts(
  deps: SlackCardNeeds,
  facts: Pick<GateCardFacts, "team_id" | "run_id">,
  context: unknown,
  traceLink: string,
): Promise<ReviewFacts> {
  const ctx = asObject(context);
  const reason = (await guardedContext({ reason: ctx.reason })).reason ?? "(withheld by the guard)";
  const [input, output] = [await guardedContext(ctx.input), await guardedContext(ctx.output)];
  const excerpt = Object.entries(output)
    .filter(([k]) => k !== "reason" && k !== "schema_guard")
    .slice(0, MAX_EXCERPT_FIELDS)
    .map(([k, v]) => (k in input ? `${k}: ${input[k]} → ${v}` : `${k}: ${v}`));
  const artifacts = Array.isArray(ctx.artifacts) ? ctx.artifacts.filter((a) => typeof a === "string") : [];
  const only = artifacts.length === 1 ? (artifacts[0] as string) : null;
  const artifacts_link = only
    ? await signedArtifactLink(deps, facts.team_id, facts.run_id, only)
    : artifacts.length
      ? traceLink
      : undefined;
  return { reason, excerpt, artifact_count: artifacts.length, ...(artifacts_link ? { artifacts_link } : {}) };
}

/** Queues the cards of these gate events for the teams that installed Slack (one message per gate, updated in place). */
export async function enqueueGateCards(events: GateEventLike[], deps: SlackCardNeeds): Promise<void> {
  const installs = new Map<string, SlackInstallation | null>();
  for (const e of events)
    if (!installs.has(e.team_id)) installs.set(e.team_id, await deps.slackStore.byTeam(e.team_id));
  const extras = new Map<GateEventLike, CardExtras>();
  for (const e of events) {
    const inst = installs.get(e.team_id);
    const facts = factsOf(e);
    if (!inst || !facts) continue;
    // an acknowledgement only updates a card already posted: a gate without one gets none from it
    if (e.type === "gate.acknowledged" && !(await deps.slackStore.postedMessage(cardKey(facts.gate_id)))) continue;
    const shared = inst.settings.share_context?.includes(facts.policy_key) ? await guardedContext(e.context) : null;
    const trace_link = await signedTraceLink(deps, facts.team_id, facts.run_id, facts.gate_id);
    const review =
      facts.policy_key === DEAD_LETTER_REVIEW && (e.type === "gate.opened" || e.type === "gate.acknowledged")
        ? await reviewFacts(deps, facts, e.context, trace_link)
        : null;
    extras.set(e, {
      trace_link,
      ...(review ? { review } : {}),
      ...(shared && Object.keys(shared).length ? { shared_context: shared } : {}),
      ...(inst.settings.escalation_target ? { escalation_target: inst.settings.escalation_target } : {}),
    });
  }
  const messages = gateCardMessages(events, (e) => extras.get(e) ?? null);
  if (messages.length) await deps.slackOutbox.send(messages);
}

/** A signed, read-only trace URL (as POST /v1/views mints them) anchored at the gate's step. */
export const signedTraceLink = (deps: SlackCardNeeds, teamId: string, runId: string, gateId: string) =>
  signedRunLink(deps, teamId, runId, `gate-${gateId}`);
