// WorkOrder v1 (an SDOP contract): one unit of work a worker leases, runs and completes.
import { z } from "zod";
import { WireId } from "./wire-id";

export const WorkOrderV1 = z
  .strictObject({
    order_id: WireId,
    task_id: WireId,
    goal: z.string().min(1).max(2000),
    input_json: z.record(z.string(), z.unknown()),
    namespaces: z.array(z.string().min(1).max(512)).max(32).optional(),
    cap_token: z.string().max(4096).optional(),
    output_schema_id: z.string().min(1).max(256),
    timeout_sec: z.int().min(1),
    cost_budget_tokens: z.int().min(0).optional(),
    /** optional: the skill this order exercises; POST /v1/orders/lease-next hands it only to workers with that skill */
    skill: z.string().min(1).max(128).optional(),
  })
  .meta({ id: "WorkOrderV1", title: "WorkOrder v1" });
export type WorkOrderV1 = z.infer<typeof WorkOrderV1>;
