// Port: the per-run state machine (one Durable Object per run) as the routes see it: requests in, replies out.
import type { ApprovalActionV1 } from "../../contracts/approval-action.v1";
import type { WorkOrderV1 } from "../../contracts/work-order.v1";
import type { AppError } from "../errors";

/** Who is calling, from the verified token. */
export type RunActor = { team_id: string; subject: string; run_id?: string; task_id?: string };

export type RunBudgetInput = { input_tokens: number; output_tokens: number; total_tokens: number | null };

export type RunRequest =
  | {
      op: "create";
      actor: RunActor;
      run_id: string;
      goal: string;
      template: string | null;
      skills: string[];
      budget: RunBudgetInput;
    }
  | { op: "view"; actor: RunActor }
  | { op: "explain"; actor: RunActor }
  | { op: "add_order"; actor: RunActor; order: WorkOrderV1; skill: string | null }
  | { op: "lease"; actor: RunActor; order_id: string; worker_id: string }
  | { op: "heartbeat"; actor: RunActor; order_id: string; lease_id: string; epoch: number }
  | {
      op: "complete";
      actor: RunActor;
      order_id: string;
      lease_id: string;
      epoch: number;
      op_id: string;
      outcome: "PASS" | "DECLINE" | "ERROR";
      failure_class: string | null;
      tokens_in: number;
      tokens_out: number;
      output: unknown;
    }
  | { op: "open_gate"; actor: RunActor; op_id: string; policy_key: string; context: Record<string, unknown> }
  | { op: "get_gate"; actor: RunActor; gate_id: string }
  | {
      op: "decide_gate";
      actor: RunActor;
      op_id: string;
      policy_key: string;
      decision: ApprovalActionV1["decision"];
      note: string | null;
    }
  | { op: "propose_deploy"; actor: RunActor; target: "profile" | "gates" | "ceiling"; version: number }
  | { op: "stop"; actor: RunActor; reason: string | null };

export type RunReply =
  | {
      ok: true;
      value: Record<string, unknown>;
      activated?: { target: "profile" | "gates" | "ceiling"; version: number }[];
    }
  | { ok: false; error: AppError };

export interface RunGateway {
  dispatch(runId: string, request: RunRequest): Promise<RunReply>;
  /** the team's control run, which holds its policy_deploy gates */
  controlRunId(teamId: string): Promise<string>;
}
