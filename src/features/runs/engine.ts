// RunEngine: the use-case behind RunDO — prepares commands (I/O, preparers.ts), applies the pure reducer, persists the
// diff, keeps an outbox (D1 rows, policy activations, EVENTS) flushed after every change, and keeps the one alarm armed.

import { isQueuedRunEvent, type QueuedRunEvent } from "../../../contracts/internal-events";
import type { AppError } from "../../errors";
import { log } from "../../lib/log";
import { own, putOwn } from "../../lib/own";
import type { BoardGateway } from "../../ports/board";
import type { Clock } from "../../ports/clock";
import type { DecisionJournal } from "../../ports/decision-journal";
import type { LoggedDecision } from "../../ports/decision-log";
import type { EventBus } from "../../ports/event-bus";
import { DEAD_LETTER_REVIEW, DEPLOY_TARGET_SPECS, type DeployNeeds, gateView } from "../gates/domain";
import { artifactAccess } from "./artifact-access";
import { BoardSync } from "./board-sync";
import type { Activation, CommandOf, ReduceResult, RunMeta, RunState, WardenRunEvent } from "./model";
import type { RunOpName, RunOpRequest, RunOpResult, RunReadOp, RunRequest, RunWriteOp } from "./operations";
import { createPreparers, type Preparer, type PreparerNeeds, type Preparers } from "./preparers";
import { authorize, reduce, reduceOp } from "./reducer";
import type { RunStorage } from "./run-storage-port";
import {
  alarmFor,
  FLUSH_RETRY_MAX_MS,
  fitForQueue,
  idOf,
  MAPS,
  MAX_PUT,
  OUTBOX_SAFETY_MS,
  type OutboxItem,
  pad,
} from "./storage-layout";
import type { RunRecordStore } from "./store/run-record-port";
import { explainView, runView } from "./views";

export { fitForQueue } from "./storage-layout";

/** What a run's object needs: what its preparers read, and the record, queue and board its outbox writes. */
export type RunEngineNeeds = DeployNeeds &
  PreparerNeeds & {
    runRecord: Pick<RunRecordStore, "write" | "retryAdjustments">;
    events: EventBus;
    /** the team's decision journal: a step's policy decision goes to the decision log through it, not EVENTS */
    decisionJournal: DecisionJournal;
    /** the team's work board: a graph run's item changes are synced to it (absent: no board, e.g. unit tests) */
    board?: BoardGateway;
  };
/** @deprecated name kept for the tests: RunEngineNeeds */
export type EngineDeps = RunEngineNeeds;

const notFoundError = (runId: string): AppError => ({ code: "not_found", message: `run ${runId} not found` });

/** The read operations, answered from the state without the reducer. */

const isReadOp = (op: RunOpName): op is RunReadOp => Object.hasOwn(READS, op);

const READS: { [K in RunReadOp]: (state: RunState, req: RunOpRequest<K>) => RunOpResult<K> } = {
  view: (state) => ({ ok: true, value: runView(state) }),
  explain: (state) => ({ ok: true, value: explainView(state) }),
  get_gate: (state, req) => {
    const gate = own(state.gates, req.gate_id);
    if (!gate) return { ok: false, error: { code: "not_found", message: `gate ${req.gate_id} not found` } };
    // a review's evidence (input, output, reason, artifacts) is read one gate at a time, never in the run view
    const evidence = gate.policy_key === DEAD_LETTER_REVIEW ? { context: gate.context } : {};
    return { ok: true, value: { ...gateView(state.run.run_id, gate), ...evidence } };
  },
  artifact_access: artifactAccess,
};

export class RunEngine {
  private state: RunState | null = null;
  private outbox = new Map<number, OutboxItem>();
  private nextOut = 0;
  private armedAt: number | null = null;
  private retryAt: number | null = null;
  private failures = 0;
  private flushChain: Promise<void> = Promise.resolve();
  private readonly board: BoardSync;
  private readonly preparers: Preparers;
  private applying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: RunStorage,
    private readonly deps: RunEngineNeeds,
    /** the object's clock; tests move it to expire leases and fire soft gates */
    public clock: Clock,
  ) {
    this.board = new BoardSync(deps.board);
    // one entry per operation with something to prepare (PreparedOp); every other command is its request as is
    this.preparers = createPreparers(deps, () => this.state);
  }

  /** Loads everything but the event log (called inside blockConcurrencyWhile). */
  async load(): Promise<void> {
    const stored = await this.storage.get<Omit<RunMeta, "steps">>("meta");
    if (stored) {
      const meta: RunMeta = { ...stored, steps: (await this.storage.get<RunMeta["steps"]>("steps")) ?? [] };
      const maps = await Promise.all(
        MAPS.map(async ([name, prefix]) => {
          const rows = await this.storage.list<never>({ prefix });
          const out: Record<string, unknown> = {};
          for (const v of rows.values()) putOwn(out, idOf[name](v), v);
          return [name, out] as const;
        }),
      );
      this.state = { run: meta, ...Object.fromEntries(maps) } as RunState;
    }
    const pending = await this.storage.list<OutboxItem>({ prefix: "out:" });
    for (const item of pending.values()) {
      this.outbox.set(item.n, item);
      this.nextOut = Math.max(this.nextOut, item.n + 1);
    }
    this.armedAt = await this.storage.getAlarm();
    if (this.outbox.size > 0) {
      // the previous instance died with unsent items: retry at once
      this.retryAt = this.clock.now();
      await this.rearm();
    }
  }

  /** For tests and explain: the current state (read-only). */
  snapshotState(): RunState | null {
    return this.state;
  }

  /** Any operation by name (tests; the RunDO calls read / write directly). */
  dispatch(runId: string, req: RunRequest): Promise<RunOpResult<RunOpName>> {
    const { op, ...rest } = req;
    return this.call(runId, op, rest as RunOpRequest<typeof op>);
  }

  /** Any operation of the table: a read is answered from the loaded state, a write goes through the reducer. */
  call<K extends RunOpName>(runId: string, op: K, req: RunOpRequest<K>): Promise<RunOpResult<K>> {
    if (isReadOp(op)) return this.read(runId, op, req as RunOpRequest<typeof op>) as Promise<RunOpResult<K>>;
    if (op === "resend_completion") return this.resendCompletion(runId, req) as Promise<RunOpResult<K>>;
    return this.write(runId, op as RunWriteOp, req as RunOpRequest<RunWriteOp>) as Promise<RunOpResult<K>>;
  }

  /** A read operation: answered from the loaded state, nothing changes. */
  async read<K extends RunReadOp>(runId: string, op: K, req: RunOpRequest<K>): Promise<RunOpResult<K>> {
    const denied = authorize(this.state, req.actor, runId);
    if (denied || this.state === null) return { ok: false, error: denied ?? notFoundError(runId) };
    return READS[op](this.state, req);
  }

  /**
   * Sends the run's latest run.completed again with its own event id (the consumer's processed keys make a second
   * delivery harmless), unless its outbox item is still unsent: then the outbox flush sends it.
   */
  async resendCompletion(
    runId: string,
    req: RunOpRequest<"resend_completion">,
  ): Promise<RunOpResult<"resend_completion">> {
    const denied = authorize(this.state, req.actor, runId);
    if (denied || this.state === null) return { ok: false, error: denied ?? notFoundError(runId) };
    const seq = this.state.run.completion_seq;
    const event = seq === undefined ? undefined : await this.storage.get<WardenRunEvent>(`ev:${pad(seq)}`);
    if (!event || !isQueuedRunEvent(event)) return { ok: true, value: { event_id: null, resent: false } };
    const unsent = [...this.outbox.values()].some((item) => item.events.some((e) => e.event_id === event.event_id));
    if (!unsent) await this.deps.events.publish([fitForQueue(event)]);
    return { ok: true, value: { event_id: event.event_id, resent: !unsent } };
  }

  /** A write operation: prepare (I/O), reduce, persist, then answer (after the activation it caused, if any). */
  async write<K extends RunWriteOp>(runId: string, op: K, req: RunOpRequest<K>): Promise<RunOpResult<K>> {
    const command = await this.prepare(runId, op, req);
    const result = await this.apply((state, now) => reduceOp(state, command, now));
    if (!result.ok) return result;
    const mine = result.item;
    // The state is committed: answer now and let the outbox reach D1 and EVENTS behind the response. A policy
    // activation is awaited, so that the approver's next read sees the new version; a graph change only until it
    // reached the board (which leases a released item the moment the completion is answered) — on the board's own
    // chain, so neither this item's D1 batch nor an earlier item stuck on D1 holds it back.
    const synced = mine?.board?.length && this.deps.board ? this.syncBoard() : null;
    const flushed = this.flush();
    if (synced) await synced;
    if (!mine?.activations.length) return { ok: true, value: result.reply };
    await flushed;
    const activated = this.outbox.has(mine.n)
      ? undefined
      : mine.activations.map((a) => ({ target: a.target, version: a.version }));
    return { ok: true, value: result.reply, ...(activated ? { activated } : {}) };
  }

  /**
   * The alarm: fire due timers, re-arm for the earliest deadline, start the outbox flush. Idempotent. The flush
   * is not awaited, so a flush never delays the object's next alarm (a failed one re-arms a retry).
   */
  async alarm(): Promise<void> {
    this.armedAt = null;
    if (this.state) await this.apply((state, now) => reduce(state, { type: "tick" }, now));
    if (this.outbox.size > 0)
      this.retryAt = Math.min(this.retryAt ?? Number.POSITIVE_INFINITY, this.clock.now() + OUTBOX_SAFETY_MS);
    await this.rearm();
    void this.flush();
  }

  /** Resolves once every outbox flush started so far has finished (tests, graceful waits). */
  idle(): Promise<void> {
    return this.flushChain;
  }

  /** Everything a command needs from outside (ids, digests, policy, rules, snapshot, hints) gathered before reducing. */
  private prepare<K extends RunWriteOp>(runId: string, op: K, req: RunOpRequest<K>): Promise<CommandOf<K>> {
    const preparers: Partial<Record<RunWriteOp, unknown>> = this.preparers;
    const preparer = preparers[op] as Preparer<K> | undefined;
    // Without a preparer the command is the request (CommandOf adds nothing for an op outside PreparedOp).
    if (!preparer) return Promise.resolve({ type: op, ...req } as CommandOf<K>);
    return preparer(runId, req, this.clock.now());
  }

  /**
   * Reduce, write the changed entities, the new events and one outbox item, and only then swap the new state in and
   * re-arm the alarm: a throw in the reducer or a failed storage write leaves memory, storage and the outbox (so D1 and
   * EVENTS) exactly as they were.
   */
  private apply<R>(reduceWith: (state: RunState | null, now: number) => ReduceResult<R>) {
    // one at a time: each reduces the state the previous one committed
    const run = this.applying.then(() => this.applyNow(reduceWith));
    this.applying = run.catch(() => undefined);
    return run;
  }

  private async applyNow<R>(reduceWith: (state: RunState | null, now: number) => ReduceResult<R>) {
    const now = this.clock.now();
    const prev = this.state;
    const result = reduceWith(prev, now);
    if (!result.ok) return result;
    const { effects } = result;
    const puts: Record<string, unknown> = {};
    const dels: string[] = [];
    const run = result.state.run;
    if (prev === null || prev.run !== run) {
      // steps are the bulky part of the run and change less often than its counters: a key of their own
      const { steps, ...meta } = run;
      puts.meta = meta;
      if (prev === null || prev.run.steps !== steps) puts.steps = steps;
    }
    for (const [name, prefix] of MAPS) {
      const before = (prev?.[name] ?? {}) as Record<string, unknown>;
      const after = result.state[name] as Record<string, unknown>;
      if (before === after) continue;
      for (const [id, v] of Object.entries(after)) if (own(before, id) !== v) puts[prefix + id] = v;
      for (const id of Object.keys(before)) if (!Object.hasOwn(after, id)) dels.push(prefix + id);
    }
    for (const e of effects.events) puts[`ev:${pad(e.seq)}`] = e;
    let item: OutboxItem | null = null;
    if (effects.events.length || effects.records.length || effects.activations.length || effects.board.length) {
      item = {
        n: this.nextOut,
        events: effects.events,
        records: effects.records,
        activations: effects.activations,
        ...(effects.board.length ? { board: effects.board } : {}),
      };
      puts[`out:${pad(item.n)}`] = item;
    }
    const retryAt = item ? (this.retryAt ?? now + OUTBOX_SAFETY_MS) : this.retryAt;
    const alarm = alarmFor(result.state, this.outbox.size + (item ? 1 : 0), retryAt, this.failures > 0);
    // Issued without an await in between, so the object's storage commits them, the alarm included, as one atomic
    // batch: one commit per operation (a separate alarm write was a second commit, each a disk sync locally).
    const writes: Promise<unknown>[] = [];
    const entries = Object.entries(puts);
    for (let i = 0; i < entries.length; i += MAX_PUT)
      writes.push(this.storage.put(Object.fromEntries(entries.slice(i, i + MAX_PUT))));
    if (dels.length) writes.push(this.storage.delete(dels));
    if (alarm !== this.armedAt) writes.push(alarm === null ? this.storage.deleteAlarm() : this.storage.setAlarm(alarm));
    await Promise.all(writes);
    // durable: now the object's memory follows
    this.state = result.state;
    this.armedAt = alarm;
    if (item) {
      this.nextOut = item.n + 1;
      this.outbox.set(item.n, item);
      this.retryAt = retryAt;
    }
    return { ok: true as const, reply: result.reply, item };
  }

  /** Serialized: each flush starts after the previous one, so it sees every item queued before it was asked for. */
  private flush(): Promise<void> {
    const run = this.flushChain
      .then(() => this.flushOnce())
      .catch((e) => {
        log.error("run outbox flush crashed", { error: String(e) });
      });
    this.flushChain = run;
    return run;
  }

  private syncBoard(): Promise<void> {
    const run = this.state?.run;
    return this.board.send(this.outbox, () => (run ? { teamId: run.team_id, runId: run.run_id } : null));
  }

  private async flushOnce(): Promise<void> {
    const items = [...this.outbox.values()].sort((a, b) => a.n - b.n);
    // the board first: an item goes to D1 and the queue only once its rows reached the board (they arrive in order)
    if (this.board.behind(this.outbox)) await this.syncBoard();
    // the sent items leave storage in one delete at the end (one commit per flush, not one per item)
    const sent: string[] = [];
    const forgetSent = () => (sent.length ? this.storage.delete(sent) : undefined);
    for (const item of items) {
      if (!this.outbox.has(item.n)) continue;
      try {
        if (!this.board.has(item.n)) throw new Error(`outbox item ${item.n}: board rows not synced`);
        if (item.records.length) await this.deps.runRecord.write(item.records);
        for (const a of item.activations) await this.activate(a);
        await this.handOver(item.events.filter(isQueuedRunEvent));
      } catch (e) {
        this.failures++;
        const delay = Math.min(FLUSH_RETRY_MAX_MS, 1000 * 2 ** (this.failures - 1));
        this.retryAt = this.clock.now() + delay;
        log.error("run outbox flush failed; retrying by alarm", { item: item.n, delay_ms: delay, error: String(e) });
        await forgetSent();
        await this.rearm();
        return;
      }
      this.outbox.delete(item.n);
      this.board.forget(item.n);
      sent.push(`out:${pad(item.n)}`);
    }
    await forgetSent();
    if (this.outbox.size === 0 && (this.retryAt !== null || this.failures > 0)) {
      this.failures = 0;
      this.retryAt = null;
      await this.rearm();
    }
  }

  /**
   * An item's queued events: its policy decisions into the team's journal first (whose flush logs them and publishes
   * their `policy.decided` events; a repeated append of a logged decision adds nothing), the rest to EVENTS.
   */
  private async handOver(events: QueuedRunEvent[]): Promise<void> {
    // the modes are MemrlMode values: logDecision (attempts.ts) writes the event from a typed StepDecision
    const decisions = events.flatMap((e) => (e.type === "policy.decided" ? [e.decision as LoggedDecision] : []));
    const teamId = decisions[0]?.team_id;
    if (teamId !== undefined) await this.deps.decisionJournal.append(teamId, decisions);
    const queued = events.filter((e) => e.type !== "policy.decided").map(fitForQueue);
    if (queued.length) await this.deps.events.publish(queued);
  }

  private async activate(a: Activation): Promise<void> {
    const target = DEPLOY_TARGET_SPECS[a.target];
    const changed = await target.activate(this.deps, a.team_id, a.version, this.clock.now());
    target.invalidate(this.deps, a.team_id);
    if (!changed) log.warn("activation changed nothing (not pending)", { ...a });
  }

  /** One alarm for every timer: the earliest of lease expiries, back-offs, soft gates and an outbox retry. */
  private async rearm(): Promise<void> {
    const desired = alarmFor(this.state, this.outbox.size, this.retryAt, this.failures > 0);
    if (desired === this.armedAt) return;
    this.armedAt = desired;
    if (desired === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(desired);
  }
}
