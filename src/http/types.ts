// The Hono environment every route shares: deps as bindings, the request id and the caller as variables.
import type { Principal } from "../auth/tokens";
import type { Deps } from "../deps";

export type AppEnv = {
  Bindings: { deps: Deps };
  Variables: { requestId: string; principal: Principal };
};
