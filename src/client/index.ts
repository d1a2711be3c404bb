// The typed Warden client for Node, Deno, browsers and agents: `hono/client` over the app's route types, plus local token minting.
export { type MintOptions, mintToken } from "../auth/mint.ts";
export type { Scope } from "../auth/tokens.ts";
export { type ClientOptions, createApi, unwrap, WardenError } from "./api.ts";
export type { Api } from "./app-type.ts";
export {
  type CachedToken,
  createKeyApi,
  createTokenSession,
  memoryCache,
  REFRESH_BEFORE_MS,
  type SessionOptions,
  type TokenCache,
  type TokenSession,
} from "./session.ts";
