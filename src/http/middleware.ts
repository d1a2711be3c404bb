// Request plumbing, in order: authenticate (before any body is read, with the per-IP pre-auth limit), body limit,
// JSON-only bodies, then per route: scopes and the rate limits of the route's class.
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Scope } from "../auth/tokens";
import { AppFailure } from "../errors";
import { type Bucket, failsOpen, routeClassOf, spend } from "./rate-limits";
import type { FeatureEnv, HttpNeeds } from "./types";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The one /v1 route whose bearer is an API key rather than a capability token. */
export const TOKENS_PATH = "/v1/tokens";

/**
 * Routes whose body is raw bytes with a limit of their own (artifact uploads, src/features/artifacts: 10 MiB, counted
 * from Content-Length and while streaming): neither the 1 MiB limit nor the JSON gate applies to them.
 */
const RAW_BODY_ROUTE = /^\/v1\/runs\/[^/]+\/artifacts$/;
export const isRawBodyRoute = (method: string, path: string) => method === "POST" && RAW_BODY_ROUTE.test(path);

const jsonSizedBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppFailure({ code: "payload_too_large", limitBytes: MAX_BODY_BYTES });
  },
});

/** 413 for bodies over 1 MiB, also when chunked without Content-Length (hono counts the stream). */
export const limitBody: MiddlewareHandler = (c, next) =>
  isRawBodyRoute(c.req.method, c.req.path) ? next() : jsonSizedBody(c, next);

/** The JSON media types the route validators accept (the same grammar as @hono/zod-openapi's, so both agree). */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const hasBody = (method: string) => method === "POST" || method === "PUT" || method === "PATCH";
const isRead = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";
const JWT_BEARER = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)\s*$/i;
const KEY_BEARER = /^Bearer\s+(\S+)\s*$/i;

type Ctx = Context<FeatureEnv<unknown>>;

/**
 * Per client IP, before anything else is spent on a caller that has not proven who it is. Keyed by
 * `CF-Connecting-IP`, which Cloudflare always sets — trusted only when the deployment says it sits behind Cloudflare
 * (`BEHIND_CLOUDFLARE`); without it (npm start, tests) there is no client IP to key on.
 * An outage fails open: the request is refused with 401 anyway.
 */
export async function preAuthLimit<Needs>(c: Context<FeatureEnv<Needs>>, now: number) {
  const { deps } = c.env;
  const ip = c.req.header("cf-connecting-ip");
  if (!deps.limits.enabled || !ip || deps.limits.trustClientIp === false) return;
  const bucket: Bucket = {
    name: "preauth-ip",
    key: `ip:${ip.slice(0, 64)}`,
    rule: { limit: deps.limits.preauthPerMinute, periodSeconds: 60 },
  };
  await spend(deps.rateLimiter, [bucket], now, true);
}

/**
 * /v1/*: verifies the bearer before the body is read. A capability token (or an API key on POST /v1/tokens) becomes
 * the principal; a missing or failed one spends the caller IP's pre-auth budget (429 once spent) and, on a request
 * that may carry a body (anything but GET/HEAD/OPTIONS), answers 401 at once — so a caller without credentials never gets 400/413/415. Body-less
 * requests go on, and requireScope answers 401 (a route without requireScope is public).
 */
export const authenticate: MiddlewareHandler<FeatureEnv<unknown>> = async (c, next) => {
  const { deps } = c.env;
  const now = deps.clock.now();
  const header = c.req.header("authorization");
  let failure: string | undefined;
  if (c.req.path === TOKENS_PATH) {
    const m = header ? KEY_BEARER.exec(header) : null;
    if (!m) failure = "missing API key (Authorization: Bearer wdn_live_…)";
    else {
      const r = await deps.apiKeys.verify(m[1] as string, now);
      if (r.ok) c.set("apiKey", r.value);
      else failure = r.error;
    }
  } else {
    const m = header ? JWT_BEARER.exec(header) : null;
    if (!m) failure = header ? "malformed bearer token" : "missing bearer token";
    else {
      const r = await deps.verifyToken(m[1] as string, now);
      if (!r.ok) failure = r.error;
      else if (r.value.keyId && (await deps.apiKeys.isRevoked(r.value.keyId, now)))
        failure = "token's API key was revoked";
      else c.set("principal", r.value);
    }
  }
  if (failure !== undefined) {
    await preAuthLimit(c, now);
    c.set("authFailure", failure);
    if (!isRead(c.req.method)) throw new AppFailure({ code: "unauthorized", message: failure });
  }
  return next();
};

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
 * or blank body reads as {}. The text hono's validators read is replaced by the checked one, so they parse it as-is
 * (hono's `json()` reads its `text` cache: without it, it would decode the body's bytes again through a new Response).
 * A refused body still costs the authenticated caller one request of its bucket (a 429 once spent): refusals are
 * work too, and a flood of bad JSON must meet the same limit as good calls.
 */
export const jsonBody: MiddlewareHandler<FeatureEnv<unknown>> = async (c, next) => {
  if (!hasBody(c.req.method) || isRawBodyRoute(c.req.method, c.req.path)) return next();
  try {
    // read as bytes: workerd warns on .text() of a body whose type is not text, and a wrong type is refused below
    checkJsonBody(c, new TextDecoder().decode(await c.req.arrayBuffer()));
  } catch (refusal) {
    const principal = c.get("principal");
    if (principal) {
      const { deps } = c.env;
      await applyRateLimits(deps, c.req, principal.teamId, principal.subject, deps.clock.now());
    }
    throw refusal;
  }
  return next();
};

function checkJsonBody(c: Ctx, text: string): void {
  const type = c.req.header("content-type") ?? "";
  if (text.trim() === "") {
    if (type !== "" && !JSON_TYPE.test(type.trim())) throw unsupported(type);
    // hono keeps promises in its body cache although the type says values
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve("{}");
    c.req.bodyCache.json = {};
    return;
  }
  if (!JSON_TYPE.test(type)) throw unsupported(type);
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw new AppFailure({ code: "invalid_json", message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels` });
  try {
    c.req.bodyCache.json = JSON.parse(text);
  } catch {
    throw new AppFailure({ code: "invalid_json" });
  }
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
}

const unsupported = (type: string) =>
  new AppFailure({
    code: "unsupported_media_type",
    message: `this route accepts application/json, not "${type.slice(0, 64) || "(none)"}"`,
  });

/**
 * Spends the buckets of the request's route class: the subject's within its team first, then the team's, so a runaway
 * agent exhausts its own bucket before the team's. Sets `RateLimit-Policy` / `RateLimit` on the answer.
 */
export async function applyRateLimits(
  deps: HttpNeeds,
  req: { method: string; path: string },
  teamId: string,
  subject: string,
  now: number,
): Promise<Record<string, string>> {
  if (!deps.limits.enabled) return {};
  const cls = routeClassOf(req.method, req.path);
  const l = (await deps.limits.team.forTeam(teamId, now))[cls];
  const buckets: Bucket[] = [
    {
      name: `${cls}-subject`,
      key: `s:${cls}:${teamId}:${subject}`,
      rule: { limit: l.perSubject, periodSeconds: l.periodS },
    },
    { name: `${cls}-team`, key: `t:${cls}:${teamId}`, rule: { limit: l.perTeam, periodSeconds: l.periodS } },
  ];
  return spend(deps.rateLimiter, buckets, now, failsOpen(req.method, cls), teamId);
}

/**
 * Requires the principal `authenticate` verified, one of `scopes`, and room in the route class's rate limits. The
 * handler carries its scopes (`SCOPES_OF`), so the OpenAPI document lists them per route (`documentScopes`).
 */
export function requireScope(...scopes: Scope[]): MiddlewareHandler<FeatureEnv<unknown>> {
  return Object.assign(scopeCheck(scopes), { [SCOPES_OF]: scopes });
}

/** The property under which requireScope's handler carries the scopes it accepts. */
export const SCOPES_OF = Symbol("warden.scopes");

function scopeCheck(scopes: Scope[]): MiddlewareHandler<FeatureEnv<unknown>> {
  return async (c, next) => {
    const principal = c.get("principal");
    if (!principal)
      throw new AppFailure({ code: "unauthorized", message: c.get("authFailure") ?? "missing bearer token" });
    if (!scopes.some((s) => principal.scopes.has(s))) {
      throw new AppFailure({ code: "forbidden", message: `token lacks scope ${scopes.join(" or ")}` });
    }
    const { deps } = c.env;
    const headers = await applyRateLimits(deps, c.req, principal.teamId, principal.subject, deps.clock.now());
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
