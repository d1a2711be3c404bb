// gate.opened / gate.decided from the EVENTS queue → approval cards on SLACK_OUTBOX (soft and hard gates only).
import type { SlackOutboxMessage } from "../../ports/slack";
import { decidedCard, type GateCardFacts, openCard } from "./blocks";
import type { SlackCardNeeds } from "./needs";

type GateEventLike = { type: string; team_id: string; run_id?: string | null; occurred_at: number } & Record<
  string,
  unknown
>;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The card messages for a batch of gate events (pure): auto and deny gates get no card. */
export function gateCardMessages(events: GateEventLike[], publicUrl: string): SlackOutboxMessage[] {
  const out: SlackOutboxMessage[] = [];
  for (const e of events) {
    const kind = str(e.kind);
    const gate_id = str(e.gate_id);
    const run_id = str(e.run_id);
    if ((kind !== "soft" && kind !== "hard") || !gate_id || !run_id) continue;
    const facts: GateCardFacts = {
      team_id: e.team_id,
      run_id,
      gate_id,
      op_id: str(e.op_id) ?? "",
      policy_key: str(e.policy_key) ?? "",
      kind,
      ...(str(e.opened_by) ? { opened_by: str(e.opened_by) } : {}),
      deadline_at: typeof e.deadline_at === "number" ? e.deadline_at : null,
      ...(str(e.order_id) ? { order_id: str(e.order_id) } : {}),
      ...(str(e.task_id) ? { task_id: str(e.task_id) } : {}),
    };
    if (e.type === "gate.opened") out.push(openCard(facts, publicUrl));
    else if (e.type === "gate.decided")
      out.push(
        decidedCard(
          facts,
          {
            status: str(e.status) ?? "decided",
            decision: str(e.decision) ?? "",
            decided_by: str(e.decided_by) ?? "someone",
            decided_at: e.occurred_at,
          },
          publicUrl,
        ),
      );
  }
  return out;
}

/** Queues the cards of these gate events (idempotent downstream: one message per gate, updated in place). */
export async function enqueueGateCards(events: GateEventLike[], deps: SlackCardNeeds): Promise<void> {
  await deps.slackOutbox.send(gateCardMessages(events, deps.config.PUBLIC_URL));
}
