// RunDO: one SQLite-backed Durable Object per run; each run operation is one RPC method over RunEngine.
// The methods are not written out: one per RUN_OPS entry is put on the prototype below (Workers RPC calls prototype
// methods), and the interface merge types the class as RunOperations, so the stub's methods follow the table.
import { DurableObject } from "cloudflare:workers";
import { makeRunEngineNeeds, systemClock } from "../src/deps";
import { RUN_OPS, RunEngine, type RunOperations, type RunOpName, type RunOpRequest } from "../src/features/runs";

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
    return this.engine.alarm();
  }
}

for (const op of Object.keys(RUN_OPS) as RunOpName[]) {
  Object.defineProperty(RunDO.prototype, op, {
    value(this: RunDO, runId: string, request: RunOpRequest<typeof op>) {
      return this.engine.call(runId, op, request);
    },
    writable: true,
    configurable: true,
  });
}
