// Test helpers: minting capability tokens and calling the worker over its fetch handler.
import { env, SELF } from "cloudflare:test";
import { mintToken } from "../src/auth/mint";
import { SCOPES, type Scope } from "../src/auth/tokens";

export const ALL_SCOPES: Scope[] = [...SCOPES];

export function token(
  teamId = "team-a",
  scopes: Scope[] = ALL_SCOPES,
  extra: Partial<Parameters<typeof mintToken>[0]> = {},
) {
  return mintToken({ secret: env.WARDEN_JWT_SECRET, teamId, scopes, sub: `user-${teamId}`, ...extra });
}

export type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string> };

/** A request as an API client sends it: bearer token, JSON body (strings pass through as written). */
export function apiRequest(method: string, path: string, opts: CallOptions = {}): Request {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`https://warden.test${path}`, { method, headers, body });
}

/** Reads a response once: status, headers, raw text and the parsed JSON (undefined when it is not JSON). */
export async function readResponse(res: Response) {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export async function call(method: string, path: string, opts: CallOptions = {}) {
  return readResponse(await SELF.fetch(apiRequest(method, path, opts)));
}
