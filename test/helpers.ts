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

export async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await SELF.fetch(`https://warden.test${path}`, { method, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}
