// The correlation fields of one run-object operation: the run, the caller's team, task and persona, and the order it
// names (with that order's task when the caller's token names none).
import type { RunState } from "./model";

type OpRequest = { actor?: { team_id?: string; task_id?: string; persona_id?: string }; order_id?: unknown };

export function runOpCorrelation(state: RunState | null, runId: string, req: unknown) {
  const r = (typeof req === "object" && req !== null ? req : {}) as OpRequest;
  const orderId = typeof r.order_id === "string" ? r.order_id : undefined;
  const order = orderId && state && Object.hasOwn(state.orders, orderId) ? state.orders[orderId] : undefined;
  return {
    run_id: runId,
    team_id: r.actor?.team_id ?? state?.run.team_id,
    task_id: r.actor?.task_id ?? order?.task_id,
    persona_id: r.actor?.persona_id,
    order_id: orderId,
  };
}
