// GET /v1/policy/classes: both failure-class vocabularies (MemRL and the run taxonomy) and the mapping between them.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  MemrlFailureClass,
  RUN_FAILURE_CLASSES,
  RUN_TO_MEMRL,
  RunFailureClass,
} from "../../../contracts/failure-classes";
import { FAILURE_CLASSES } from "../../../contracts/memrl-policy";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonResponse } from "../../http/openapi";
import type { PolicyNeeds } from "./index";

export const FailureClasses = z
  .object({
    memrl: z.array(MemrlFailureClass).meta({ description: "what decide and the profiles' rules speak" }),
    run_taxonomy: z.array(RunFailureClass).meta({ description: "what a completion's failure_class speaks" }),
    run_to_memrl: z
      .record(RunFailureClass, MemrlFailureClass)
      .meta({ description: "the MemRL class a run-taxonomy class is decided as (runs and decide use it)" }),
  })
  .meta({ id: "FailureClasses" });

export const classesRoutes = featureApp<PolicyNeeds>().openapi(
  createRoute({
    method: "get",
    path: "/v1/policy/classes",
    tags: ["policy"],
    summary: "Both failure-class vocabularies and the run-taxonomy → MemRL mapping",
    description: "decide accepts either vocabulary; any other class is decided fail-closed and answered with warnings.",
    security: bearer,
    middleware: [requireScope("policy:decide", "policy:admin", "runs:read", "runs:write")] as const,
    responses: { 200: jsonResponse(FailureClasses, "the vocabularies"), ...commonErrors },
  }),
  (c) =>
    c.json({ memrl: [...FAILURE_CLASSES], run_taxonomy: [...RUN_FAILURE_CLASSES], run_to_memrl: RUN_TO_MEMRL }, 200),
);
