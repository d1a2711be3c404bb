// GET /healthz: liveness and version, no auth.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { FeatureEnv } from "../../http/types";

const Health = z.object({ ok: z.literal(true), version: z.string() }).meta({ example: { ok: true, version: "0.1.0" } });

export const healthRoutes = new OpenAPIHono<FeatureEnv<{ config: { WARDEN_VERSION: string } }>>().openapi(
  createRoute({
    method: "get",
    path: "/healthz",
    tags: ["meta"],
    summary: "Liveness and version",
    responses: { 200: { description: "alive", content: { "application/json": { schema: Health } } } },
  }),
  (c) => c.json({ ok: true as const, version: c.env.deps.config.WARDEN_VERSION }, 200),
);
