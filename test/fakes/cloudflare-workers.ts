// `cloudflare:workers` in the unit project (a vitest alias): the DurableObject base class the objects extend.

/** As workerd's: keeps the state and env the runtime constructs the object with. */
export class DurableObject<Env = unknown> {
  protected readonly ctx: DurableObjectState;
  protected readonly env: Env;
  constructor(ctx: DurableObjectState, env: Env) {
    this.ctx = ctx;
    this.env = env;
  }
}
