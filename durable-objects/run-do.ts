// RunDO: one SQLite-backed Durable Object per run; each run operation is one RPC method over RunEngine.
// The methods are not written out: one per RUN_OPS entry is put on the prototype below (Workers RPC calls prototype
// methods), and the interface merge types the class as RunOperations, so the stub's methods follow the table.
import { DurableObject } from "cloudflare:workers";
import { makeRunEngineNeeds, systemClock } from "../src/deps";
import {
  RUN_OPS,
  RunEngine,
  type RunOperations,
  type RunOpName,
  type RunOpRequest,
  runOpCorrelation,
} from "../src/features/runs";
import { withLogContext } from "../src/lib/log";

export interface RunDO extends RunOperations {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the RunOperations methods are put on the prototype below
export class RunDO extends DurableObject<Env> {
  readonly engine: RunEngine;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.engine = new RunEngine(ctx.storage, makeRunEngineNeeds(env), systemClock);
    void ctx.blockConcurrencyWhile(() => this.engine.load());
  }

  override alarm(): Promise<void> {
    const run = this.engine.snapshotState()?.run;
    return withLogContext({ run_id: run?.run_id, team_id: run?.team_id }, () => this.engine.alarm());
  }
}

for (const op of Object.keys(RUN_OPS) as RunOpName[]) {
  Object.defineProperty(RunDO.prototype, op, {
    value(this: RunDO, runId: string, request: RunOpRequest<typeof op>) {
      const fields = runOpCorrelation(this.engine.snapshotState(), runId, request);
      return withLogContext(fields, () => this.engine.call(runId, op, request));
    },
    writable: true,
    configurable: true,
  });
}
