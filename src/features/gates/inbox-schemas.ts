// Wire shapes of the approver's inbox list (GET /v1/gates): the query and the listed gates.
import { z } from "zod";
import { GATE_OUTCOMES } from "./outcome";
import { GATE_KEY_FIELDS } from "./schemas";

export const GateListQuery = z.object({
  status: z
    .enum(["open", "pending", "approved", "auto_allowed", "denied", "aborted", "skipped"])
    .default("open")
    .meta({ description: "open (= pending, the default) or a decided status" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const GateListItem = z.object({
  ...GATE_KEY_FIELDS,
  status: z.string(),
  opened_by: z.string(),
  opened_at: z.int(),
  age_ms: z.int().meta({ description: "how long the gate has been open (now − opened_at)" }),
  deadline_at: z.int().nullable().meta({ description: "when a soft gate allows itself; null for hard gates" }),
  decided_by: z.string().nullable(),
  decided_at: z.int().nullable(),
  outcome: z.enum(GATE_OUTCOMES).nullable().meta({ description: "how the gate ended; null while pending" }),
});
export const GateList = z.object({ gates: z.array(GateListItem) }).meta({
  id: "GateList",
  example: {
    gates: [
      {
        gate_id: "gate_9a3f…",
        run_id: "run_5b0c…",
        op_id: "op-77",
        policy_key: "wrong_value",
        kind: "hard",
        status: "pending",
        opened_by: "worker-7",
        opened_at: 1767225600000,
        age_ms: 42000,
        deadline_at: null,
        decided_by: null,
        decided_at: null,
        outcome: null,
      },
    ],
  },
});
