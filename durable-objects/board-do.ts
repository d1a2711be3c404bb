// BoardDO: one SQLite-backed Durable Object per team (named "board:" + team_id): the work board, over Board.
import { DurableObject } from "cloudflare:workers";
import { createDurableRunGateway } from "../src/adapters/do/run-gateway";
import { systemClock } from "../src/deps";
import { Board, BoardStore } from "../src/features/board";
import type { RunOperations } from "../src/features/runs";
import type {
  BoardLeaseOutcome,
  BoardOps,
  BoardResult,
  BoardRow,
  BoardSettings,
  BoardWorker,
  Persona,
} from "../src/ports/board";

export class BoardDO extends DurableObject<Env> implements BoardOps {
  readonly board: Board;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const runs = createDurableRunGateway<RunOperations>(
      env.RUN as unknown as { idFromName(n: string): DurableObjectId; get(id: DurableObjectId): RunOperations },
      env.WARDEN_JWT_SECRET,
    );
    this.board = new Board(new BoardStore(ctx.storage.sql), runs, systemClock);
  }

  sync(runId: string, rows: BoardRow[]): Promise<void> {
    return this.board.sync(runId, rows);
  }
  leaseNext(worker: BoardWorker): Promise<BoardResult<BoardLeaseOutcome>> {
    return this.board.leaseNext(worker);
  }
  admit(): Promise<BoardResult<null>> {
    return this.board.admit();
  }
  putPersona(p: Persona): Promise<BoardResult<Persona>> {
    return this.board.putPersona(p);
  }
  personas(): Promise<BoardResult<Record<string, unknown>[]>> {
    return this.board.personas();
  }
  putSettings(patch: Partial<BoardSettings>): Promise<BoardResult<BoardSettings>> {
    return this.board.putSettings(patch);
  }
  view(): Promise<BoardResult<Record<string, unknown>>> {
    return this.board.view();
  }
}
