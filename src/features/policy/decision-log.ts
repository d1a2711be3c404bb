// Writes `policy.decided` events into the decision log (one D1 batch per coalesced group, idempotent by decision_id):
// straight from the deciding isolate, or from the EVENTS consumer for a group D1 refused there.

import { canonicalJson, sha256Hex } from "../../lib/digest";
import type { EventBus, WardenEvent } from "../../ports/event-bus";
import type { LoggedDecision, PolicyStore } from "../../ports/policy-store";

export async function recordDecisionEvents(
  events: WardenEvent[],
  deps: { policyStore: PolicyStore },
): Promise<undefined> {
  const decisions = await Promise.all(
    events.map(async (e) => {
      const d = e.decision as LoggedDecision;
      return { ...d, inputs_digest: await sha256Hex(canonicalJson(d.inputs)) };
    }),
  );
  await deps.policyStore.recordDecisions(decisions);
}

/**
 * How long the deciding isolate gathers decisions before writing them (or 100, whichever comes first): a D1 batch
 * costs far more than a row, so groups as large as the queue consumer's (1 s) keep the log's cost per decision low.
 */
export const DECISION_LOG_DELAY_MS = 1000;

/**
 * The decision log's writer behind POST /v1/policy/decide's buffer: each coalesced group of decisions is one D1 batch
 * written from the isolate that decided (off the response path, under waitUntil), without a queue hop and a
 * consumer run per group. A group D1 refuses goes to EVENTS instead, whose consumer writes it with retries and a
 * dead-letter queue; the insert ignores a decision_id already logged, so a group that reached both is logged once.
 */
export function createDecisionLogWriter(store: PolicyStore, fallback: EventBus): EventBus {
  return {
    async publish(events) {
      try {
        await recordDecisionEvents(events, { policyStore: store });
      } catch (e) {
        console.warn(
          JSON.stringify({ level: "warn", msg: "decision log write failed; sent to EVENTS", error: String(e) }),
        );
        await fallback.publish(events);
      }
    },
  };
}
