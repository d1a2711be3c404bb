// Wire shapes of the run routes (zod, with OpenAPI examples).
import { z } from "zod";
import { WireId } from "../../../contracts/wire-id";
import { WorkItemV1 } from "../../../contracts/work-item.v1";
import { WorkOrderV1 } from "../../../contracts/work-order.v1";
import { GateViewSchema } from "../gates/domain";

const id = WireId;
/** largest `output` a completion may carry (serialized JSON) */
export const MAX_OUTPUT_BYTES = 256 * 1024;
/** largest work order (serialized JSON): it is kept in the run's storage and in D1 */
export const MAX_ORDER_BYTES = 256 * 1024;

/** the schema's cap on one batch (the graph rules count the run's items against MAX_ITEMS_PER_RUN and say so) */
const MAX_BATCH_ITEMS = 1000;

export const RunParams = z.object({ run_id: id });
export const OrderParams = z.object({ run_id: id, order_id: id });

export const CreateRunBody = z
  .strictObject({
    goal: z.string().min(1).max(2000),
    template: z.string().min(1).max(128).optional(),
    skills: z.array(z.string().min(1).max(128)).max(32).optional(),
    budget: z
      .strictObject({
        input_tokens: z.int().min(1).max(1_000_000).optional(),
        output_tokens: z.int().min(1).max(1_000_000).optional(),
        total_tokens: z.int().min(1).max(1_000_000_000).optional(),
      })
      .optional(),
    items: z
      .array(WorkItemV1)
      .max(MAX_BATCH_ITEMS)
      .optional()
      .meta({ description: "a declared work graph: each item is released as an order once its depends_on passed" }),
  })
  .meta({
    id: "CreateRunRequest",
    example: { goal: "Health: Extract & Verify", template: "invoice", skills: ["extract"] },
  });

export const MemoryHintSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  class: z.string(),
  text: z.string(),
  score: z.number(),
});

export const PolicySnapshotSchema = z
  .object({
    version: z.string(),
    taken_at: z.int(),
    retry_adjustments: z.record(
      z.string(),
      z.object({ backoff_multiplier: z.number(), max_attempts_override: z.int().nullable() }),
    ),
    warnings: z.array(z.string()),
    /** the rest of the team's policy memory at start (seed 004): entries, routing weights, last update */
    policy_memory: z
      .object({
        last_updated: z.string().nullable(),
        entries: z.array(z.record(z.string(), z.unknown())),
        routing_weights: z.record(z.string(), z.number()),
        reset: z.object({ code: z.string(), reason: z.string() }).nullable(),
        warnings: z.array(z.string()),
      })
      .optional(),
  })
  .meta({ id: "PolicySnapshot" });

/** task.observer.memory_hints kept on the run: what memory answered for each recent failed attempt */
export const FailureHintsSchema = z
  .object({
    order_id: z.string(),
    task_id: z.string(),
    op_id: z.string(),
    failure_class: z.string().nullable(),
    at: z.int(),
    hints: z.array(MemoryHintSchema),
  })
  .meta({ id: "FailureHints" });

export const ITEM_STATES = ["waiting", "ready", "leased", "passed", "dead_letter", "skipped", "cancelled"] as const;
export const ItemSummary = z.object({ item_id: z.string(), state: z.enum(ITEM_STATES) });
export const ItemsBody = z.strictObject({ items: z.array(WorkItemV1).min(1).max(MAX_BATCH_ITEMS) }).meta({
  id: "AddItemsRequest",
  example: {
    items: [
      {
        item_id: "verify-2",
        goal: "verify again with the stricter schema",
        input_json: {},
        depends_on: ["extract"],
        output_schema_id: "verifier-output.v1",
        timeout_sec: 60,
      },
    ],
  },
});
export const ItemsAdded = z
  .object({ run_id: z.string(), items: z.array(ItemSummary) })
  .meta({ id: "ItemsAdded", example: { run_id: "run_5b0c…", items: [{ item_id: "verify-2", state: "waiting" }] } });

export const ItemView = z
  .object({
    item_id: z.string(),
    state: z.enum(ITEM_STATES),
    goal: z.string(),
    depends_on: z.array(z.string()),
    priority: z.int(),
    persona_id: z.string().optional(),
    skill: z.string().optional(),
    order_id: z.string().optional(),
    released_at: z.int().optional(),
    skipped_by: z.string().optional(),
  })
  .meta({ id: "WorkItemView" });

export const CreateRunResponse = z
  .object({
    run_id: z.string(),
    status: z.string(),
    items: z.array(ItemSummary).optional(),
    hints: z.array(MemoryHintSchema),
    policy_snapshot: PolicySnapshotSchema,
  })
  .meta({
    id: "CreateRunResponse",
    example: {
      run_id: "run_5b0c…",
      status: "PENDING",
      hints: [],
      policy_snapshot: { version: "1.0.0", taken_at: 1767225600000, retry_adjustments: {}, warnings: [] },
    },
  });

export const RunView = z
  .object({
    run_id: z.string(),
    kind: z.enum(["agent", "control"]),
    status: z.enum(["PENDING", "RUNNING", "COMPLETE", "DEAD_LETTER", "STOPPED"]),
    goal: z.string(),
    steps: z.array(z.record(z.string(), z.unknown())),
    steps_total: z.int(),
    orders: z.array(z.record(z.string(), z.unknown())),
    items: z.array(ItemView).meta({ description: "the declared work graph: every item with its state and deps" }),
    gates: z.array(GateViewSchema),
    hints: z.array(MemoryHintSchema),
    failure_hints: z.array(FailureHintsSchema),
    budget: z.object({
      input_tokens: z.int(),
      output_tokens: z.int(),
      total_tokens: z.int().nullable(),
      used: z.object({ tokens_in: z.int(), tokens_out: z.int() }),
      /** steps refused over a budget: the budget is breached when this is above 0 (docs/runs.md, "Budgets") */
      breaches: z.int().min(0),
    }),
    dead_letters: z.array(z.record(z.string(), z.unknown())),
    policy_snapshot: PolicySnapshotSchema,
    exit: z.record(z.string(), z.unknown()).nullable(),
  })
  .loose()
  .meta({ id: "Run" });

export const ExplainExit = z
  .object({
    run_id: z.string(),
    status: z.string(),
    ended: z.boolean(),
    reason: z.string(),
    ended_at: z.int().nullable(),
    terminal_step: z.record(z.string(), z.unknown()).nullable(),
    decisions: z.array(z.record(z.string(), z.unknown())),
    gates: z.array(GateViewSchema),
    dead_letters: z.array(z.record(z.string(), z.unknown())),
    hints: z.array(MemoryHintSchema),
    failure_hints: z.array(FailureHintsSchema),
    tokens: z.object({ in: z.int(), out: z.int() }),
    steps: z.int(),
    graph: z
      .object({
        failed: z.array(z.string()),
        skipped: z.array(z.object({ item_id: z.string(), because: z.string().nullable() })),
        cancelled: z.array(z.string()),
      })
      .optional()
      .meta({ description: "runs with a graph: the dead-lettered items and the chain skipped behind them" }),
  })
  .meta({ id: "ExplainExit" });

export const OrderBody = WorkOrderV1.meta({
  id: "WorkOrderRequest",
  example: {
    order_id: "ord-1",
    task_id: "task-extract",
    goal: "extract fields",
    input_json: { doc: "INV-0042" },
    output_schema_id: "extractor.v1",
    timeout_sec: 30,
    cost_budget_tokens: 1000,
    skill: "extract",
  },
});
export const OrderCreated = z.object({ order_id: z.string(), status: z.string() }).meta({ id: "OrderCreated" });

export const LeaseBody = z
  .strictObject({ worker_id: id })
  .meta({ id: "LeaseRequest", example: { worker_id: "worker-7" } });
export const LeaseResponse = z
  .object({
    lease_id: z.string(),
    epoch: z.int(),
    lease_ttl_ms: z.int(),
    heartbeat_ms: z.int(),
    expires_at: z.int(),
    attempt: z.int(),
    strict: z.boolean(),
    budget: z.record(z.string(), z.int()),
    order: WorkOrderV1,
    /** reissued after a dead_letter_review: who approved it (and possibly corrected order.input_json) */
    reviewed_by: z.string().optional(),
  })
  .meta({ id: "Lease" });

export const HeartbeatBody = z
  .strictObject({ lease_id: id, epoch: z.int().min(1) })
  .meta({ id: "HeartbeatRequest", example: { lease_id: "lease_1f…", epoch: 1 } });
export const HeartbeatResponse = z
  .object({ lease_id: z.string(), epoch: z.int(), expires_at: z.int(), lease_ttl_ms: z.int(), heartbeat_ms: z.int() })
  .meta({ id: "Heartbeat" });

export const CompleteBody = z
  .strictObject({
    lease_id: id,
    epoch: z.int().min(1),
    op_id: id,
    outcome: z.enum(["PASS", "DECLINE", "ERROR"]),
    failure_class: z.string().min(1).max(64).optional(),
    tokens_in: z.int().min(0).max(100_000_000).optional(),
    tokens_out: z.int().min(0).max(100_000_000).optional(),
    output: z.unknown().optional(),
    /** ids of this run's artifacts that are evidence of the attempt (POST /v1/runs/:run_id/artifacts) */
    artifacts: z.array(id).max(50).optional(),
  })
  .meta({
    id: "CompleteRequest",
    example: {
      lease_id: "lease_1f…",
      epoch: 1,
      op_id: "op-123",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
      tokens_in: 610,
      tokens_out: 120,
    },
  });
export const CompleteResponse = z
  .object({
    next: z.enum(["complete", "retry", "gate", "dead_letter", "replan"]),
    attempt: z.int(),
    retry_after_ms: z.int().optional(),
    gate_id: z.string().optional(),
    dead_letter_id: z.string().optional(),
    refused: z.string().optional(),
    hints: z.array(MemoryHintSchema).optional(),
    decision: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "CompleteResponse", example: { next: "gate", attempt: 1, gate_id: "gate_9a3f…" } });

export const StopBody = z
  .strictObject({ reason: z.string().min(1).max(500).optional() })
  .meta({ id: "StopRequest", example: { reason: "operator stopped the run" } });
export const StopResponse = z
  .object({
    run_id: z.string(),
    status: z.string(),
    revoked_leases: z.array(z.string()),
    revoked_orders: z.array(z.string()),
    aborted_gates: z.array(z.string()),
  })
  .meta({ id: "StopResponse" });
