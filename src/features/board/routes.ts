// /v1/personas and /v1/board: the team's personas with live figures, the board's counts, its backpressure settings.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { BoardNeeds } from "./index";

const PersonaParams = z.object({ persona_id: z.string().min(1).max(128) });
const PersonaBody = z
  .strictObject({
    name: z.string().min(1).max(200),
    role: z.string().max(200).default(""),
    concurrency_limit: z
      .int()
      .min(1)
      .max(10_000)
      .meta({ description: "leases it may hold across all runs (1 = mutex)" }),
    enabled: z.boolean().default(true).meta({ description: "a disabled persona's items wait" }),
  })
  .meta({ id: "PersonaRequest", example: { name: "Extractor", role: "extract", concurrency_limit: 1, enabled: true } });
const PersonaView = z
  .object({
    persona_id: z.string(),
    name: z.string(),
    role: z.string(),
    concurrency_limit: z.int(),
    enabled: z.boolean(),
  })
  .meta({ id: "Persona" });
const PersonaList = z
  .object({
    personas: z.array(
      PersonaView.extend({
        registered: z.boolean().meta({ description: "false: named by items only (limit 1, enabled)" }),
        leased: z.int(),
        ready: z.int(),
        waiting: z.int(),
        oldest_ready_age_ms: z.int().nullable(),
        tokens_7d: z.int(),
      }),
    ),
  })
  .meta({ id: "PersonaList" });
const SettingsBody = z
  .strictObject({
    max_ready: z.int().min(1).max(1_000_000).nullable().optional().meta({ description: "null: no limit" }),
    max_tokens_per_hour: z
      .int()
      .min(1)
      .max(10_000_000_000)
      .nullable()
      .optional()
      .meta({ description: "null: no limit" }),
    persona_wait_alert_ms: z.int().min(1000).max(86_400_000).optional(),
  })
  .meta({ id: "BoardSettingsRequest", example: { max_ready: 500, max_tokens_per_hour: 2_000_000 } });
const Settings = z
  .object({ max_ready: z.int().nullable(), max_tokens_per_hour: z.int().nullable(), persona_wait_alert_ms: z.int() })
  .meta({ id: "BoardSettings" });
const BoardView = z
  .object({
    ready: z.int(),
    leased: z.int(),
    waiting: z.int(),
    by_persona_priority: z.array(
      z.object({ state: z.string(), persona_id: z.string().nullable(), priority: z.int(), count: z.int() }),
    ),
    oldest_ready: z
      .object({
        run_id: z.string(),
        item_id: z.string(),
        persona_id: z.string().nullable(),
        ready_at: z.int(),
        age_ms: z.int(),
      })
      .nullable(),
    backpressure: z.object({
      on: z.boolean(),
      ready_over: z.boolean(),
      tokens_over: z.boolean(),
      tokens_last_hour: z.int(),
    }),
    settings: Settings,
  })
  .meta({ id: "Board" });

export const boardRoutes = featureApp<BoardNeeds>()
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/personas/{persona_id}",
      tags: ["board"],
      summary: "Create or replace a persona: its concurrency_limit holds across all the team's runs",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { params: PersonaParams, body: jsonBody(PersonaBody) },
      responses: { 200: jsonResponse(PersonaView, "the persona"), ...commonErrors },
    }),
    async (c) => {
      const { persona_id } = c.req.valid("param");
      const body = c.req.valid("json");
      const board = c.env.deps.board.forTeam(c.get("principal").teamId);
      return c.json(orFail(await board.putPersona({ persona_id, ...body })), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/personas",
      tags: ["board"],
      summary: "The team's personas with live figures: leased now, ready, oldest ready age, tokens in 7 days",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      responses: { 200: jsonResponse(PersonaList, "the personas"), ...commonErrors },
    }),
    async (c) => {
      const board = c.env.deps.board.forTeam(c.get("principal").teamId);
      return c.json({ personas: orFail(await board.personas()) as z.infer<typeof PersonaList>["personas"] }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/board",
      tags: ["board"],
      summary: "The team's work board: ready, leased and waiting by persona and priority, oldest ready, backpressure",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      responses: { 200: jsonResponse(BoardView, "the board"), ...commonErrors },
    }),
    async (c) => {
      const board = c.env.deps.board.forTeam(c.get("principal").teamId);
      return c.json(orFail(await board.view()) as z.infer<typeof BoardView>, 200);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/board/settings",
      tags: ["board"],
      summary: "Backpressure settings: max_ready (429 backpressure on new work over it), max_tokens_per_hour",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(SettingsBody) },
      responses: { 200: jsonResponse(Settings, "the settings now"), ...commonErrors },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const board = c.env.deps.board.forTeam(c.get("principal").teamId);
      return c.json(orFail(await board.putSettings(body)), 200);
    },
  );
