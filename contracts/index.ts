// Registry of the checked-in contracts: each zod source with its generated JSON Schema file and examples.
import type { z } from "zod";
import { ApprovalActionV1 } from "./approval-action.v1";
import { MemrlPolicyProfile } from "./memrl-policy";
import { SessionEventV1 } from "./session-event.v1";
import { WorkOrderV1 } from "./work-order.v1";

export type ContractEntry = { name: string; schema: z.ZodType };

/** `name` is the file stem: contracts/<name>.schema.json and contracts/<name>.*example*.json */
export const CONTRACTS: ContractEntry[] = [
  { name: "memrl-policy", schema: MemrlPolicyProfile },
  { name: "work-order.v1", schema: WorkOrderV1 },
  { name: "approval-action.v1", schema: ApprovalActionV1 },
  { name: "session-event.v1", schema: SessionEventV1 },
];
