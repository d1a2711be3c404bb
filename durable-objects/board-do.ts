// BoardDO: one SQLite-backed Durable Object per team (named "board:" + team_id): the work board, over Board.
import { DurableObject } from "cloudflare:workers";
import { createDurableRunGateway } from "../src/adapters/do/run-gateway";
import { makeDeps, systemClock } from "../src/deps";
import { Board, BoardStore } from "../src/features/board";
import type { RunOperations } from "../src/features/runs";
import { ALERT_WINDOW_MS, raiseAlerts } from "../src/features/slack";
// the board's port types under one name: this object only forwards them to Board
import type * as B from "../src/ports/board";

export class BoardDO extends DurableObject<Env> implements B.BoardOps {
  readonly board: Board;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const runs = createDurableRunGateway<RunOperations>(
      env.RUN as unknown as { idFromName(n: string): DurableObjectId; get(id: DurableObjectId): RunOperations },
      env.WARDEN_JWT_SECRET,
    );
    // the ops alerts go through the one alerts path (recorded in D1, coalesced, queued for the team's ops channel)
    const sink = {
      windowMs: ALERT_WINDOW_MS,
      raise: (o: Parameters<typeof raiseAlerts>[0]) => raiseAlerts(o, makeDeps(env)),
    };
    const teamId = ctx.id.name?.startsWith("board:") ? ctx.id.name.slice("board:".length) : undefined;
    this.board = new Board(new BoardStore(ctx.storage.sql), runs, systemClock, { sink, teamId });
  }

  async sync(runId: string, rows: B.BoardRow[]): Promise<void> {
    await this.board.sync(runId, rows);
    await this.watchWaiting();
  }

  /** The alarm looks at a disabled persona's waiting items again (it alerts without anyone calling). */
  override async alarm(): Promise<void> {
    await this.watchWaiting();
  }

  /** Alerts what waits too long now, and arms the alarm for when something will (never later than armed). */
  private async watchWaiting(): Promise<void> {
    const next = await this.board.checkWaiting();
    if (next === null) return;
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed > next) await this.ctx.storage.setAlarm(next);
  }
  leaseNext(worker: B.BoardWorker): Promise<B.BoardResult<B.BoardLeaseOutcome>> {
    return this.board.leaseNext(worker);
  }
  admit(): Promise<B.BoardResult<null>> {
    return this.board.admit();
  }
  async putPersona(p: B.Persona): Promise<B.BoardResult<B.Persona>> {
    const put = await this.board.putPersona(p);
    await this.watchWaiting();
    return put;
  }
  personas(): Promise<B.BoardResult<Record<string, unknown>[]>> {
    return this.board.personas();
  }
  async putSettings(patch: Partial<B.BoardSettings>): Promise<B.BoardResult<B.BoardSettings>> {
    const put = await this.board.putSettings(patch);
    await this.watchWaiting();
    return put;
  }
  view(): Promise<B.BoardResult<Record<string, unknown>>> {
    return this.board.view();
  }
}
