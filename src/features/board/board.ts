// The team's work board (use-case behind BoardDO): syncs items from run objects, leases the next item by the dispatch
// order through its run object, keeps personas and settings, answers backpressure and the board's views.
import type { AppError } from "../../errors";
import type {
  BoardAlertSink,
  BoardLeaseOutcome,
  BoardOps,
  BoardResult,
  BoardRow,
  BoardSettings,
  BoardWorker,
  Persona,
} from "../../ports/board";
import type { Clock } from "../../ports/clock";
import type { RunsService } from "../runs";
import { BoardAlerts } from "./board-alerts";
import { type BoardStore, DEFAULT_SETTINGS } from "./board-store";
import { type Candidate, DEFAULT_PERSONA_LIMIT, FAIR_WINDOW_MS, rankFor } from "./dispatch";

/** how many candidates one lease-next tries (each refusal re-ranks) before answering "nothing now" */
export const LEASE_TRIES = 5;
/** Retry-After of a backpressure refusal and of a token-rate wait */
export const BACKPRESSURE_RETRY_S = 5;
const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 86_400_000;

const ok = <T>(value: T): BoardResult<T> => ({ ok: true, value });
const fail = (error: AppError): BoardResult<never> => ({ ok: false, error });

export class Board implements BoardOps {
  private readonly alerts: BoardAlerts;

  constructor(
    private readonly store: BoardStore,
    private readonly runs: Pick<RunsService, "get">,
    /** the board's clock; tests move it to cross alert windows */
    public clock: Clock,
    /** the ops alerts and the team they are for (absent: no alerts, e.g. unit tests) */
    alerts?: { sink: BoardAlertSink; teamId: string | undefined },
  ) {
    this.alerts = new BoardAlerts(store, alerts?.sink, alerts?.teamId);
  }

  async sync(runId: string, rows: BoardRow[]): Promise<void> {
    this.store.sync(runId, rows, this.clock.now());
  }

  /** A disabled persona's items waiting too long → one ops alert per window; when to look again (null: never). */
  checkWaiting(): Promise<number | null> {
    return this.alerts.checkWaiting(this.store.settings(), this.clock.now());
  }

  /** Over the team's token rate (RB-04) new leases wait; otherwise the best eligible item, leased by its run. */
  async leaseNext(worker: BoardWorker): Promise<BoardResult<BoardLeaseOutcome>> {
    const settings = this.store.settings();
    let now = this.clock.now();
    if (this.tokensOver(settings, now)) {
      const used = this.store.tokensSince(now - HOUR_MS);
      await this.alerts.raise(
        "board_token_rate",
        now,
        `${used} tokens in the last hour (max_tokens_per_hour ${settings.max_tokens_per_hour}): new leases wait`,
      );
      return ok({ kind: "none", retry_after_s: BACKPRESSURE_RETRY_S, throttled: true });
    }
    for (let i = 0; i < LEASE_TRIES; i++) {
      now = this.clock.now();
      const best = rankFor(worker, this.dispatchView(now), now)[0];
      if (!best) break;
      if (!this.store.reserve(best.run_id, best.item_id)) continue;
      const leased = await this.leaseFromRun(best, worker);
      if (leased) return ok({ kind: "leased", lease: leased });
    }
    return ok({ kind: "none", retry_after_s: this.nextLeasableIn(worker, this.clock.now()), throttled: false });
  }

  /** Asks the item's run object for the lease; the board's row follows what it answered. */
  private async leaseFromRun(c: Candidate, worker: BoardWorker) {
    let reply: Awaited<ReturnType<ReturnType<RunsService["get"]>["lease"]>>;
    try {
      reply = await this.runs.get(c.run_id).lease(c.run_id, {
        actor: {
          team_id: worker.team_id,
          subject: worker.subject,
          ...(worker.run_id === undefined ? {} : { run_id: worker.run_id }),
          ...(worker.task_id === undefined ? {} : { task_id: worker.task_id }),
          ...(worker.persona_id === undefined ? {} : { persona_id: worker.persona_id }),
        },
        order_id: c.item_id,
        worker_id: worker.worker_id,
        board: true,
      });
    } catch (e) {
      this.store.refused(c, this.clock.now(), false);
      throw e;
    }
    if (reply.ok) {
      this.store.granted(c, reply.value.epoch, this.clock.now());
      return { run_id: c.run_id, order_id: c.item_id, ...reply.value };
    }
    const e = reply.error;
    const gone = e.code === "not_found";
    const wait = e.code === "conflict" ? e.retryAfterSeconds : undefined;
    this.store.refused(c, wait === undefined ? null : this.clock.now() + wait * 1000, gone);
    return null;
  }

  private dispatchView(now: number) {
    return {
      candidates: this.store.candidates(),
      leasedByPersona: this.store.leasedByPersona(),
      personas: new Map(this.store.personas().map((p) => [p.persona_id, p])),
      recentLeasesByRun: this.store.recentLeasesByRun(now - FAIR_WINDOW_MS),
    };
  }

  /** Seconds until the earliest back-off among the items this worker could take (null: nothing says). */
  private nextLeasableIn(worker: BoardWorker, now: number): number | null {
    const later = this.store
      .candidates()
      .filter((c) => c.leasable_at !== null && c.leasable_at > now)
      .filter(
        (c) => rankFor(worker, { ...this.dispatchView(now), candidates: [{ ...c, leasable_at: now }] }, now).length,
      );
    if (later.length === 0) return null;
    return Math.max(1, Math.ceil((Math.min(...later.map((c) => c.leasable_at as number)) - now) / 1000));
  }

  private tokensOver(s: BoardSettings, now: number): boolean {
    return s.max_tokens_per_hour !== null && this.store.tokensSince(now - HOUR_MS) >= s.max_tokens_per_hour;
  }

  /** RB-03: more ready items than the team's max_ready → 429 backpressure; nothing is created by the caller. */
  async admit(): Promise<BoardResult<null>> {
    const s = this.store.settings();
    const ready = this.store.readyCount();
    if (s.max_ready !== null && ready >= s.max_ready) {
      await this.alerts.raise(
        "board_backpressure",
        this.clock.now(),
        `${ready} ready items (max_ready ${s.max_ready}): new runs and items are refused with 429 backpressure`,
      );
      return fail({
        code: "backpressure",
        retryAfterSeconds: BACKPRESSURE_RETRY_S,
        message: `the team has ${ready} ready items (max_ready ${s.max_ready}); add work when workers catch up`,
      });
    }
    return ok(null);
  }

  async putPersona(p: Persona): Promise<BoardResult<Persona>> {
    this.store.putPersona(p, this.clock.now());
    return ok(p);
  }

  /** Every registered persona, and every persona items name, with its live figures. */
  async personas(): Promise<BoardResult<Record<string, unknown>[]>> {
    const now = this.clock.now();
    const registered = new Map(this.store.personas().map((p) => [p.persona_id, p]));
    const counts = this.store.counts().filter((c) => c.persona_id !== null);
    const ids = new Set([...registered.keys(), ...counts.map((c) => c.persona_id as string)]);
    return ok(
      [...ids].sort().map((id) => {
        const mine = counts.filter((c) => c.persona_id === id);
        const sum = (state: string) => mine.filter((c) => c.state === state).reduce((n, c) => n + c.n, 0);
        const oldest = mine.filter((c) => c.state === "ready" && c.oldest !== null).map((c) => c.oldest as number);
        const p = registered.get(id);
        return {
          persona_id: id,
          name: p?.name ?? id,
          role: p?.role ?? "",
          concurrency_limit: p?.concurrency_limit ?? DEFAULT_PERSONA_LIMIT,
          enabled: p?.enabled ?? true,
          registered: p !== undefined,
          leased: sum("leased"),
          ready: sum("ready"),
          waiting: sum("waiting"),
          oldest_ready_age_ms: oldest.length ? now - Math.min(...oldest) : null,
          tokens_7d: this.store.tokensSince(now - WEEK_MS, id),
        };
      }),
    );
  }

  async putSettings(patch: Partial<BoardSettings>): Promise<BoardResult<BoardSettings>> {
    const next = { ...DEFAULT_SETTINGS, ...this.store.settings(), ...patch };
    this.store.putSettings(next, this.clock.now());
    return ok(next);
  }

  /** GET /v1/board: counts by persona and priority, the oldest ready item, whether backpressure is on. */
  async view(): Promise<BoardResult<Record<string, unknown>>> {
    const now = this.clock.now();
    this.store.prune(now);
    const s = this.store.settings();
    const counts = this.store.counts();
    const total = (state: string) => counts.filter((c) => c.state === state).reduce((n, c) => n + c.n, 0);
    const oldest = this.store.oldestReady();
    const ready = total("ready");
    const tokensHour = this.store.tokensSince(now - HOUR_MS);
    return ok({
      ready,
      leased: total("leased"),
      waiting: total("waiting"),
      by_persona_priority: counts.map((c) => ({
        state: c.state,
        persona_id: c.persona_id,
        priority: c.priority,
        count: c.n,
      })),
      oldest_ready: oldest ? { ...oldest, age_ms: now - oldest.ready_at } : null,
      backpressure: {
        on: (s.max_ready !== null && ready >= s.max_ready) || this.tokensOver(s, now),
        ready_over: s.max_ready !== null && ready >= s.max_ready,
        tokens_over: this.tokensOver(s, now),
        tokens_last_hour: tokensHour,
      },
      settings: s,
    });
  }
}
