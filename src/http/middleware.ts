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

/** The JSON media types the route validators accept (the same grammar as @hono/zod-openapi's, so both agree). */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const hasBody = (method: string) => method === "POST" || method === "PUT" || method === "PATCH";

/** The deepest nesting of objects and arrays a JSON body may have (documented in docs/security.md). */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of JSON text, counted without parsing (strings skipped), so a deep body never reaches a parser. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return max;
}

/**
 * JSON routes: a body must be declared JSON (415), stay within MAX_JSON_DEPTH and parse (400 invalid_json). An empty
 * or blank body reads as {}. The text hono's validators read is replaced by the checked one, so they parse it as-is.
 */
export const jsonBody: MiddlewareHandler<FeatureEnv<unknown>> = async (c, next) => {
  if (!hasBody(c.req.method)) return next();
  const text = await c.req.text();
  const type = c.req.header("content-type") ?? "";
  if (text.trim() === "") {
    if (type !== "" && !JSON_TYPE.test(type.trim())) throw unsupported(type);
    // hono keeps promises in its body cache although the type says values
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve("{}");
    c.req.bodyCache.json = {};
    return next();
  }
  if (!JSON_TYPE.test(type)) throw unsupported(type);
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw new AppFailure({ code: "invalid_json", message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels` });
  try {
    c.req.bodyCache.json = JSON.parse(text);
  } catch {
    throw new AppFailure({ code: "invalid_json" });
  }
  return next();
};

const unsupported = (type: string) =>
  new AppFailure({
    code: "unsupported_media_type",
    message: `this route accepts application/json, not "${type.slice(0, 64) || "(none)"}"`,
  });

/** Verifies the bearer token, requires one of `scopes`, and applies the team's rate limit. */
export function requireScope(...scopes: Scope[]): MiddlewareHandler<FeatureEnv<unknown>> {
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
