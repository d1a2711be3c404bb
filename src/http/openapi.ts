// Shared OpenAPI pieces: a sub-app factory whose validation failures become the error envelope, and common responses.
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { AppFailure, type Issue } from "../errors";
import type { FeatureEnv } from "./types";

export function toIssues(error: ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/**
 * A feature's sub-app: zod failures in params, query or body become 400 validation_failed with every path.
 * `Needs` is the feature's declared dependency interface; handlers see only it (plus the HTTP basics) on `c.env.deps`.
 */
export function featureApp<Needs>() {
  return new OpenAPIHono<FeatureEnv<Needs>>({
    defaultHook: (result) => {
      if (!result.success) throw new AppFailure({ code: "validation_failed", issues: toIssues(result.error) });
    },
  });
}

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      request_id: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({
    id: "ErrorEnvelope",
    example: {
      error: { code: "validation_failed", message: "request failed validation at attempt", request_id: "req_…" },
    },
  });

const err = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });

/** The errors any authenticated JSON route may answer with. */
export const commonErrors = {
  400: err("invalid_json or validation_failed (details.issues lists the failing paths)"),
  401: err("unauthorized: missing, malformed, expired or foreign token"),
  403: err("forbidden: the token lacks the scope, or reaches another team's data"),
  413: err("payload_too_large: body over 1 MiB"),
  415: err("unsupported_media_type: body not application/json"),
  429: err("rate_limited (Retry-After header)"),
  503: err("unavailable: the platform interrupted the call (a run object reset); retry after Retry-After seconds"),
} as const;

export const bearer = [{ bearerAuth: [] as string[] }];

/** A required JSON body; `example` is for schemas whose own metadata has none (shared contracts). */
export const jsonBody = <T extends z.ZodType>(schema: T, example?: unknown) => ({
  required: true,
  content: { "application/json": example === undefined ? { schema } : { schema, example } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
