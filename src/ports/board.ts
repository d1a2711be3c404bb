// Port: the team's work board (one BoardDO per team): the dispatch view of every graph item, personas, settings.
// Types only; the run objects sync their items to it and lease-next, personas and GET /v1/board go through it.
import type { AppError } from "../errors";
import type { AlertOccurrence, BoardAlertKind } from "../lib/alert-kinds";

export type { BoardAlertKind };

export type BoardItemState = "waiting" | "ready" | "leased" | "passed" | "dead_letter" | "skipped" | "cancelled";

/** The dispatch view of one item the board keeps (sent by the run object after the change commits). */
export type BoardRow = {
  item_id: string;
  state: BoardItemState;
  priority: number;
  persona_id: string | null;
  skill: string | null;
  /** the order's lease epoch: the board ignores a row older than what it granted */
  epoch: number;
  /** from when the order may be leased (null: not now, e.g. behind a gate) */
  leasable_at: number | null;
  /** when the item became ready (its release) */
  ready_at: number | null;
  /** tokens reported by the item's completions so far */
  tokens: number;
};

/** Who asks the board for work: the worker's identity and what it can take. */
export type BoardWorker = {
  team_id: string;
  subject: string;
  worker_id: string;
  /** the persona the caller acts as (token persona_id, or lease-next's persona_id) */
  persona_id?: string;
  skills?: string[];
  /** a run-bound or task-bound token only takes work of its run / task */
  run_id?: string;
  task_id?: string;
};

export type BoardLease = { run_id: string; order_id: string } & Record<string, unknown>;
export type BoardLeaseOutcome =
  | { kind: "leased"; lease: BoardLease }
  /** nothing leasable now; throttled: the team is over its token rate (RB-04) */
  | { kind: "none"; retry_after_s: number | null; throttled: boolean };

export type Persona = { persona_id: string; name: string; role: string; concurrency_limit: number; enabled: boolean };
export type BoardSettings = {
  max_ready: number | null;
  max_tokens_per_hour: number | null;
  persona_wait_alert_ms: number;
};

export type BoardResult<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** One team's board object's RPC surface. */
export interface BoardOps {
  sync(runId: string, rows: BoardRow[]): Promise<void>;
  leaseNext(worker: BoardWorker): Promise<BoardResult<BoardLeaseOutcome>>;
  /** backpressure (RB-03): may the team add work now? */
  admit(): Promise<BoardResult<null>>;
  putPersona(persona: Persona): Promise<BoardResult<Persona>>;
  personas(): Promise<BoardResult<Record<string, unknown>[]>>;
  putSettings(patch: Partial<BoardSettings>): Promise<BoardResult<BoardSettings>>;
  view(): Promise<BoardResult<Record<string, unknown>>>;
}

export interface BoardGateway {
  /** the team's board, addressed as idFromName("board:" + team_id) */
  forTeam(teamId: string): BoardOps;
}

/** Where a board sends its ops alerts: the one alerts path (recorded, coalesced per team, kind and window). */
export type BoardAlertSink = {
  /** the alerts path's window: the board raises each kind at most once per window */
  windowMs: number;
  raise(occurrences: AlertOccurrence[]): Promise<void>;
};
