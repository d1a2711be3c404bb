// RunDO: one SQLite-backed Durable Object per run; each run operation is one RPC method over RunEngine.
import { DurableObject } from "cloudflare:workers";
import { makeRunEngineNeeds, systemClock } from "../src/deps";
import { RunEngine, type RunOperations, type RunOpRequest } from "../src/features/runs";

export class RunDO extends DurableObject<Env> implements RunOperations {
  readonly engine: RunEngine;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.engine = new RunEngine(ctx.storage, makeRunEngineNeeds(env), systemClock);
    void ctx.blockConcurrencyWhile(() => this.engine.load());
  }

  create(runId: string, r: RunOpRequest<"create">) {
    return this.engine.write(runId, "create", r);
  }
  view(runId: string, r: RunOpRequest<"view">) {
    return this.engine.read(runId, "view", r);
  }
  explain(runId: string, r: RunOpRequest<"explain">) {
    return this.engine.read(runId, "explain", r);
  }
  get_gate(runId: string, r: RunOpRequest<"get_gate">) {
    return this.engine.read(runId, "get_gate", r);
  }
  add_order(runId: string, r: RunOpRequest<"add_order">) {
    return this.engine.write(runId, "add_order", r);
  }
  lease(runId: string, r: RunOpRequest<"lease">) {
    return this.engine.write(runId, "lease", r);
  }
  heartbeat(runId: string, r: RunOpRequest<"heartbeat">) {
    return this.engine.write(runId, "heartbeat", r);
  }
  complete(runId: string, r: RunOpRequest<"complete">) {
    return this.engine.write(runId, "complete", r);
  }
  open_gate(runId: string, r: RunOpRequest<"open_gate">) {
    return this.engine.write(runId, "open_gate", r);
  }
  decide_gate(runId: string, r: RunOpRequest<"decide_gate">) {
    return this.engine.write(runId, "decide_gate", r);
  }
  propose_deploy(runId: string, r: RunOpRequest<"propose_deploy">) {
    return this.engine.write(runId, "propose_deploy", r);
  }
  stop(runId: string, r: RunOpRequest<"stop">) {
    return this.engine.write(runId, "stop", r);
  }

  override alarm(): Promise<void> {
    return this.engine.alarm();
  }
}
