// RunDO: one SQLite-backed Durable Object per run; a thin shell over RunEngine (and through it the pure reducer).
import { DurableObject } from "cloudflare:workers";
import { makeDeps, systemClock } from "../src/deps";
import { RunEngine } from "../src/features/runs/engine";
import type { RunReply, RunRequest } from "../src/ports/run-gateway";

export class RunDO extends DurableObject<Env> {
  readonly engine: RunEngine;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.engine = new RunEngine(ctx.storage, makeDeps(env), systemClock);
    void ctx.blockConcurrencyWhile(() => this.engine.load());
  }

  dispatch(runId: string, request: RunRequest): Promise<RunReply> {
    return this.engine.dispatch(runId, request);
  }

  override alarm(): Promise<void> {
    return this.engine.alarm();
  }
}
