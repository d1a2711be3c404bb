// WorkItem v1: one node of a declared work graph; the run object releases it as a work order once its deps passed.
import { z } from "zod";

const itemId = z.string().min(1).max(128);

export const WorkItemV1 = z
  .strictObject({
    item_id: itemId,
    goal: z.string().min(1).max(2000),
    input_json: z.record(z.string(), z.unknown()),
    /** items of the same run that must pass before this one is released (default none) */
    depends_on: z.array(itemId).max(500).optional(),
    /** 0–9, higher first (default 5) */
    priority: z.int().min(0).max(9).optional(),
    /** only a caller acting as this persona leases the item, within the persona's concurrency_limit */
    persona_id: z.string().min(1).max(128).optional(),
    /** lease-next hands the item only to workers with this skill */
    skill: z.string().min(1).max(128).optional(),
    output_schema_id: z.string().min(1).max(256),
    timeout_sec: z.int().min(1).max(86_400),
    cost_budget_tokens: z.int().min(0).optional(),
  })
  .meta({ id: "WorkItemV1", title: "WorkItem v1" });
export type WorkItemV1 = z.infer<typeof WorkItemV1>;

/** default priority of an item that names none */
export const DEFAULT_ITEM_PRIORITY = 5;
