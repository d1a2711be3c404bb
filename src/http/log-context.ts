// The request's log scope: its request id and the run and order its path names open the correlation fields every log
// line of the request carries, the verified token adds its team, task and persona; one "request" line ends it.
import type { MiddlewareHandler } from "hono";
import type { Principal } from "../auth/tokens";
import { addLogContext, log, withLogContext } from "../lib/log";
import type { FeatureEnv } from "./types";

/** `/v1/runs/<run_id>/orders/<order_id>/…`, `/runs/<run_id>/trace`: the ids a path names (ids never hold a slash). */
const RUN_PATH = /^(?:\/v1)?\/runs\/([^/]+)(?:\/orders\/([^/]+))?/;

/** The correlation fields a request's path names. */
export function pathCorrelation(path: string): { run_id?: string; order_id?: string } {
  const m = RUN_PATH.exec(path);
  if (!m) return {};
  const decode = (s: string | undefined) => {
    if (s === undefined) return undefined;
    try {
      return decodeURIComponent(s).slice(0, 200);
    } catch {
      return undefined;
    }
  };
  return { run_id: decode(m[1]), order_id: decode(m[2]) };
}

/** What a verified token tells the log about its caller (the path's run wins over the token's). */
export function principalCorrelation(p: Principal) {
  return { team_id: p.teamId, run_id: p.runId, task_id: p.taskId, persona_id: p.personaId };
}

/**
 * Opens the scope and writes one line per request (method, path without its query — a view token travels there —,
 * status, duration). Registered right after the request id, so every later middleware logs inside the scope.
 */
export const logScope: MiddlewareHandler<FeatureEnv<unknown>> = (c, next) =>
  withLogContext({ request_id: c.get("requestId"), ...pathCorrelation(c.req.path) }, async () => {
    const started = Date.now();
    try {
      await next();
    } finally {
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        duration_ms: Date.now() - started,
      });
    }
  });

/** Adds the verified caller's fields to the request's scope (after `authenticate`). */
export const logPrincipal: MiddlewareHandler<FeatureEnv<unknown>> = (c, next) => {
  const p = c.get("principal");
  if (p) addLogContext(principalCorrelation(p));
  return next();
};
