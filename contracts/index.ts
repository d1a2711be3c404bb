// Registry of the checked-in contracts: each zod source with its generated JSON Schema file and examples.
import { z } from "zod";
import { ApprovalActionV1 } from "./approval-action.v1";
import { InternalEvent } from "./internal-events";
import { MemrlPolicyProfile } from "./memrl-policy";
import { SessionEventV1 } from "./session-event.v1";
import { TaskEventV1 } from "./task-event.v1";
import { WorkItemV1 } from "./work-item.v1";
import { WorkOrderV1 } from "./work-order.v1";

export type ContractEntry = { name: string; schema: z.ZodType };

/** `name` is the file stem: contracts/<name>.schema.json and contracts/<name>.*example*.json */
export const CONTRACTS: ContractEntry[] = [
  { name: "memrl-policy", schema: MemrlPolicyProfile },
  { name: "work-order.v1", schema: WorkOrderV1 },
  { name: "work-item.v1", schema: WorkItemV1 },
  { name: "approval-action.v1", schema: ApprovalActionV1 },
  { name: "session-event.v1", schema: SessionEventV1 },
  { name: "task-event.v1", schema: TaskEventV1 },
  { name: "internal-events", schema: InternalEvent },
];

/** The checked-in JSON Schema of a contract: draft 2020-12, with a stable $id. */
export function toJsonSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema, $ref, $defs, ...rest } = json as { $schema: string; $ref?: string; $defs?: Record<string, object> };
  // A schema with a registered id comes out as {$ref, $defs:{id}}; inline it so the document reads flat.
  const defs = Object.entries($defs ?? {});
  const [onlyDef] = defs;
  const body =
    $ref && defs.length === 1 && onlyDef && $ref === `#/$defs/${onlyDef[0]}` ? onlyDef[1] : { ...rest, $ref, $defs };
  return { $schema, $id: `https://warden.dev/contracts/${name}.schema.json`, ...body };
}
