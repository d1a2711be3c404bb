// Writes `policy.decided` events into the decision log (one D1 batch per queue batch, idempotent by decision_id).
import type { WardenEvent } from "../../ports/event-bus";
import type { LoggedDecision, PolicyStore } from "../../ports/policy-store";

/** Canonical JSON (sorted keys) so equal inputs digest equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

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
