// Request plumbing: body limit, JSON-only bodies, bearer-token auth with scopes, rate limits.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Scope } from "../auth/tokens";
import { AppFailure } from "../errors";
import type { FeatureEnv } from "./types";

export const MAX_BODY_BYTES = 1024 * 1024;

/** 413 for bodies over 1 MiB, also when chunked without Content-Length (hono counts the stream). */
export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppFailure({ code: "payload_too_large", limitBytes: MAX_BODY_BYTES });
  },
});

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const hasBody = (method: string) => method === "POST" || method === "PUT" || method === "PATCH";

/**
 * JSON routes: a body must be declared JSON (415) and parse (400 invalid_json). The parsed value stays in
 * hono's body cache, so the zod validator reads it without parsing twice. An empty body reads as {}.
 */
export const jsonBody: MiddlewareHandler<FeatureEnv<unknown>> = async (c, next) => {
  if (!hasBody(c.req.method)) return next();
  const text = await c.req.text();
  if (text.trim() === "") {
    c.req.bodyCache.json = {};
    return next();
  }
  const type = c.req.header("content-type") ?? "";
  if (!JSON_TYPE.test(type)) {
    throw new AppFailure({
      code: "unsupported_media_type",
      message: `this route accepts application/json, not "${type.slice(0, 64) || "(none)"}"`,
    });
  }
  try {
    c.req.bodyCache.json = JSON.parse(text);
  } catch {
    throw new AppFailure({ code: "invalid_json" });
  }
  return next();
};

/** Verifies the bearer token, requires one of `scopes`, and applies the team's rate limit. The handler carries its
 * scopes (`SCOPES_OF`), so the OpenAPI document can list them per route (`documentScopes`). */
export function requireScope(...scopes: Scope[]): MiddlewareHandler<FeatureEnv<unknown>> {
  return Object.assign(scopeCheck(scopes), { [SCOPES_OF]: scopes });
}

/** The property under which requireScope's handler carries the scopes it accepts. */
export const SCOPES_OF = Symbol("warden.scopes");

function scopeCheck(scopes: Scope[]): MiddlewareHandler<FeatureEnv<unknown>> {
  return async (c, next) => {
    const { deps } = c.env;
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)\s*$/i.exec(header);
    if (!match) throw new AppFailure({ code: "unauthorized", message: "missing or malformed bearer token" });
    const now = deps.clock.now();
    const verified = await deps.verifyToken(match[1] as string, now);
    if (!verified.ok) throw new AppFailure({ code: "unauthorized", message: verified.error });
    const principal = verified.value;
    if (!scopes.some((s) => principal.scopes.has(s))) {
      throw new AppFailure({ code: "forbidden", message: `token lacks scope ${scopes.join(" or ")}` });
    }
    const limit = await deps.rateLimiter.limit(`team:${principal.teamId}`, now);
    if (!limit.success) throw new AppFailure({ code: "rate_limited", retryAfterSeconds: limit.retryAfterSeconds });
    c.set("principal", principal);
    return next();
  };
}
