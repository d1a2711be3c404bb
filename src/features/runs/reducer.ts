// The pure per-run reducer: (state, command, now) → {state, effects, reply} or an expected error; no I/O, no clock.
// One reducer per write operation of the operations table; the steps live by concern in orders.ts (orders and
// leases), attempts.ts (attempt outcomes), lifecycle.ts (create, timers, stop, settling), gate-ops.ts (gates) and
// deploys.ts (policy deploys).
import { ATTEMPT_STEPS } from "./attempts";
import { proposeDeploy } from "./deploys";
import { GATE_STEPS } from "./gate-ops";
import { ITEM_STEPS } from "./items";
import { authorize, create, LIFECYCLE_STEPS, reconcile, tick } from "./lifecycle";
import type { Command, CommandOf, Failure, ReduceResult, RunState } from "./model";
import type { RunOpReply, RunWriteOp } from "./operations";
import { ORDER_STEPS } from "./orders";
import { conflict, notFound, type RunStep, type StepOp, Tx } from "./tx";

export { authorize, nextDeadline } from "./lifecycle";

type OpReducer<K extends RunWriteOp> = (
  state: RunState | null,
  cmd: CommandOf<K>,
  now: number,
) => ReduceResult<RunOpReply<K>>;

/** Runs a step on an existing run the caller may touch, then settles the run (ends or reopens it). */
function onRun<K extends StepOp>(step: RunStep<K>): OpReducer<K> {
  return (state, cmd, now) => {
    if (state === null) return notFound("run not found");
    const denied = authorize(state, cmd.actor, state.run.run_id);
    if (denied) return { ok: false, error: denied };
    const tx = new Tx(state, now);
    const out = step(tx, cmd);
    if (isFailure(out)) return out;
    reconcile(tx);
    return tx.result(out);
  };
}

/** Every step, from the concern files' tables: a StepOp without a step fails tsc here. */
const STEPS: { [K in StepOp]: RunStep<K> } = {
  ...ORDER_STEPS,
  ...ATTEMPT_STEPS,
  ...GATE_STEPS,
  ...LIFECYCLE_STEPS,
  ...ITEM_STEPS,
};

/** The reducer of every write operation of the operations table. */
const OPS: { [K in RunWriteOp]: OpReducer<K> } = {
  create: (state, cmd, now) => (state !== null ? conflict(`run ${cmd.run_id} already exists`) : create(cmd, now)),
  propose_deploy: proposeDeploy,
  ...onRunAll(STEPS),
};

function onRunAll(steps: { [K in StepOp]: RunStep<K> }): { [K in StepOp]: OpReducer<K> } {
  const out: Partial<Record<StepOp, unknown>> = {};
  for (const op of Object.keys(steps) as StepOp[]) out[op] = onRun(steps[op] as RunStep<typeof op>);
  return out as { [K in StepOp]: OpReducer<K> };
}

/** One write operation, typed by the operations table: the reply is the operation's reply type. */
export function reduceOp<K extends RunWriteOp>(
  state: RunState | null,
  cmd: CommandOf<K>,
  now: number,
): ReduceResult<RunOpReply<K>> {
  const op: OpReducer<K> = OPS[cmd.type as K];
  return op(state, cmd, now);
}

/** Any command, the alarm's tick included (the property tests drive the reducer through here). */
export function reduce(state: RunState | null, cmd: Command, now: number): ReduceResult<object> {
  if (cmd.type !== "tick") return reduceOp(state, cmd, now);
  if (state === null) return notFound("run not found");
  const tx = new Tx(state, now);
  const out = tick(tx);
  reconcile(tx);
  return tx.result(out);
}

const isFailure = (x: Failure | object): x is Failure => "ok" in x && x.ok === false && "error" in x;
