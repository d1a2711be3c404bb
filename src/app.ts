// Builds the Hono app: request id, body limit, JSON bodies, every feature's route groups (FEATURES), one error mapper.

import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { Deps } from "./deps";
import { type AppError, AppFailure, internalError, platformFailure, toWire, type WireError } from "./errors";
import { FEATURES } from "./features";
import { docsRoutes } from "./features/docs/routes";
import type { RouteGroup } from "./features/feature";
import { logPrincipal, logScope } from "./http/log-context";
import { authenticate, jsonBody, limitBody, MAX_BODY_BYTES } from "./http/middleware";
import { documentScopes } from "./http/scopes-doc";
import type { FeatureEnv } from "./http/types";
import { log } from "./lib/log";

export const API_INFO = {
  title: "Warden API",
  version: "1",
  description:
    "Edge control plane for AI agent runs: retry/escalate decisions, approval gates, leases, memory and learning.",
};

/** hono's own 4xx exceptions (validator, media-type gate, body limit) as the matching envelope error. */
export function frameworkError(e: HTTPException): AppError {
  switch (e.status) {
    case 413:
      return { code: "payload_too_large", limitBytes: MAX_BODY_BYTES };
    case 415:
      return { code: "unsupported_media_type" };
    case 401:
      return { code: "unauthorized", message: "missing or malformed bearer token" };
    case 403:
      return { code: "forbidden", message: "forbidden" };
    case 404:
      return { code: "not_found", message: "not found" };
    case 409:
      return { code: "conflict", message: "conflict" };
    case 429:
      return { code: "rate_limited", retryAfterSeconds: 1 };
    default:
      return { code: "invalid_json", message: "request body is not valid JSON" };
  }
}

export function createApp() {
  const app = new OpenAPIHono<FeatureEnv<Deps>>();

  app.use("*", requestId({ generator: () => `req_${crypto.randomUUID().replaceAll("-", "")}` }));
  // credentials first: a caller without them is refused (401, or 429 per IP) before any body is read
  app.use("*", logScope);
  app.use("/v1/*", authenticate);
  app.use("/v1/*", logPrincipal);
  app.use("*", limitBody);
  app.use("/v1/*", jsonBody);

  for (const feature of FEATURES) for (const routes of feature.routes) app.route("/", routes as RouteGroup);

  registerSecuritySchemes(app);
  let document: unknown;
  const openApiDocument = () => {
    document ??= documentScopes(app.getOpenAPI31Document({ openapi: "3.1.0", info: API_INFO }), app.routes);
    return document;
  };
  app.get("/openapi.json", (c) => c.json(openApiDocument()));
  app.route("/", docsRoutes(openApiDocument));

  answerFailuresWithTheEnvelope(app);
  return app;
}

/** The two ways a caller authenticates, named in /openapi.json. */
function registerSecuritySchemes(app: OpenAPIHono<FeatureEnv<Deps>>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "HS256 capability token: iss warden, aud warden, exp - iat ≤ 900 s, team_id, scopes",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "wdn_live_<id><secret><checksum>",
    description: "a team API key (POST /v1/keys), accepted only by POST /v1/tokens",
  });
}

/** Unknown routes and every thrown failure leave as the one error envelope (toWire); a stack trace never does. */
function answerFailuresWithTheEnvelope(app: OpenAPIHono<FeatureEnv<Deps>>) {
  const send = (wire: WireError) =>
    new Response(JSON.stringify(wire.body), {
      status: wire.status,
      headers: { "content-type": "application/json; charset=utf-8", ...wire.headers },
    });

  app.notFound((c) =>
    send(toWire({ code: "not_found", message: `no route for ${c.req.method} ${c.req.path}` }, c.get("requestId"))),
  );
  app.onError((e, c) => {
    const id = c.get("requestId") ?? "unknown";
    let res: Response;
    if (e instanceof AppFailure) res = send(toWire(e.error, id));
    else if (e instanceof HTTPException && e.status < 500) res = send(toWire(frameworkError(e), id));
    else {
      const transient = platformFailure(e);
      if (transient) {
        // The platform's own transient failure (a run object reset): the documented 503 the caller retries.
        log.warn("platform failure", { request_id: id, error: String(e) });
        res = send(toWire(transient, id));
      } else {
        // Unexpected: log the details here, answer with the envelope only.
        log.error("unexpected failure", { request_id: id, error: String(e), stack: (e as Error)?.stack });
        res = send(internalError(id));
      }
    }
    res.headers.set("X-Request-Id", id);
    return res;
  });
}
