// Test helpers: minting capability tokens and calling the worker over its fetch handler.
import { env, SELF } from "cloudflare:test";
import { mintToken } from "../src/auth/mint";
import { SCOPES, type Scope } from "../src/auth/tokens";
import { apiRequest, type CallOptions, readResponse } from "./http";

export { apiRequest, type CallOptions, readResponse } from "./http";

export const ALL_SCOPES: Scope[] = [...SCOPES];

export function token(
  teamId = "team-a",
  scopes: Scope[] = ALL_SCOPES,
  extra: Partial<Parameters<typeof mintToken>[0]> = {},
) {
  return mintToken({ secret: env.WARDEN_JWT_SECRET, teamId, scopes, sub: `user-${teamId}`, ...extra });
}

export async function call(method: string, path: string, opts: CallOptions = {}) {
  return readResponse(await SELF.fetch(apiRequest(method, path, opts)));
}
