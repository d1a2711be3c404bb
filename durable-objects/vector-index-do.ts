// VectorIndexDO, the team object: one per team, its vector index (vectors in SQLite, scanned in memory), memory rows and
// decision journal (flushed to the decision log by the object's one alarm).

import { DurableObject } from "cloudflare:workers";
import { ExactIndex, type ScanKernel } from "../src/adapters/vector/exact-index";
import { makeJournalFlushNeeds } from "../src/deps";
import {
  flushJournal,
  JOURNAL_DONE_TTL_MS,
  JOURNAL_FLUSH_DELAY_MS,
  JOURNAL_FLUSH_LIMIT,
  type JournalFlushNeeds,
  journalRetryDelay,
  sharesOfAdded,
} from "../src/features/policy";
import { log } from "../src/lib/log";
import { EMBEDDING_DIMENSIONS } from "../src/lib/vector-math";
import type { LoggedDecision } from "../src/ports/decision-log";
import type { TeamSweepCounts, TierRules } from "../src/ports/memory-maintenance";
import type { VectorCard, VectorCardMatch, VectorFilter, VectorMatch, VectorMetadata } from "../src/ports/vector-index";
import { DecisionJournalRows } from "./decision-journal-rows";
import { SharedCommit } from "./shared-commit";
import { migrateMemoryTables, TeamMemoryRows } from "./team-memory-rows";
import { sweepTeamMemory } from "./team-memory-sweep";
import cosineWasm from "./wasm/cosine.wasm";

/** The memory operations a Worker may call on a team object, one RPC each (src/adapters/do/team-memory-store.ts). */
export const MEMORY_OPS = [
  "insertDocs",
  "deleteDocs",
  "getDocs",
  "getHotDocsForActor",
  "findByContentHashes",
  "reinforce",
  "recordUses",
  "rigidDocs",
  "archiveRigid",
  "setTier",
  "importanceChangedSince",
  "hotDocsPage",
  "importRows",
  "digest",
] as const;
export type MemoryOp = (typeof MEMORY_OPS)[number];
type Ops = Pick<TeamMemoryRows, MemoryOp>;

/** What `memoryCall` answers: the operation's value, or the message of the error that refused it. */
export type MemoryCallOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** One SIMD scan kernel per object (its own linear memory); JavaScript scanning when WebAssembly SIMD is unavailable. */
function makeKernel(): ScanKernel | undefined {
  try {
    return new WebAssembly.Instance(cosineWasm, {}).exports as unknown as ScanKernel;
  } catch (e) {
    log.warn("vector index: SIMD kernel unavailable, scanning in JavaScript", { error: String(e) });
    return undefined;
  }
}

export type DoVectorRecord = { id: string; values: Float32Array; metadata: VectorMetadata; card?: VectorCard };

export class VectorIndexDO extends DurableObject<Env> {
  private index!: ExactIndex;
  private readonly memory: TeamMemoryRows;
  private readonly journal: DecisionJournalRows;
  /** failed journal flushes in a row (the retry's backoff; a new instance starts again from 1 s) */
  private journalFailures = 0;
  /** an alarm is known to be armed since the last one ran: an append need not look (one storage call less each) */
  private flushArmed = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.memory = new TeamMemoryRows(ctx.storage);
    this.journal = new DecisionJournalRows(ctx.storage);
    ctx.blockConcurrencyWhile(async () => {
      const sql = ctx.storage.sql;
      migrateMemoryTables(ctx.storage);
      // a journal left waiting (a runtime killed before its alarm fired) is flushed as soon as the object wakes
      if (this.journal.pending() > 0 && (await ctx.storage.getAlarm()) === null) await ctx.storage.setAlarm(Date.now());
      sql.exec("CREATE TABLE IF NOT EXISTS vec (id TEXT PRIMARY KEY, meta TEXT NOT NULL, v BLOB NOT NULL, card TEXT)");
      // objects created before cards existed
      const columns = [...sql.exec<{ name: string }>("PRAGMA table_info(vec)")].map((c) => c.name);
      if (!columns.includes("card")) sql.exec("ALTER TABLE vec ADD COLUMN card TEXT");
      let count = 0;
      for (const row of sql.exec<{ c: number }>("SELECT count(*) AS c FROM vec")) count = row.c;
      this.index = new ExactIndex(EMBEDDING_DIMENSIONS, Math.max(1024, count), makeKernel());
      for (const row of sql.exec<{ id: string; meta: string; v: ArrayBuffer }>("SELECT id, meta, v FROM vec")) {
        this.index.upsert(row.id, new Float32Array(row.v), JSON.parse(row.meta) as VectorMetadata);
      }
    });
  }

  upsert(records: DoVectorRecord[]): number {
    const sql = this.ctx.storage.sql;
    for (const r of records) {
      // validate (dimensions) before persisting
      this.index.upsert(r.id, r.values, r.metadata);
      const copy = new Float32Array(r.values);
      // a re-upsert without a card keeps the stored one
      sql.exec(
        `INSERT INTO vec (id, meta, v, card) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET meta = excluded.meta, v = excluded.v, card = coalesce(excluded.card, vec.card)`,
        r.id,
        JSON.stringify(r.metadata),
        copy.buffer,
        r.card === undefined ? null : JSON.stringify(r.card),
      );
    }
    return this.index.size;
  }

  delete(ids: string[]): number {
    const sql = this.ctx.storage.sql;
    for (const id of ids) {
      if (this.index.remove(id)) sql.exec("DELETE FROM vec WHERE id = ?", id);
    }
    return this.index.size;
  }

  query(vector: Float32Array, topK: number, filter?: VectorFilter): VectorMatch[] {
    return this.index.query(vector, topK, filter);
  }

  /** Several queries in one RPC (a group commit's near-duplicate check): each answered as `query` would. */
  queryMany(queries: { vector: Float32Array; topK: number; filter?: VectorFilter }[]): VectorMatch[][] {
    return queries.map((q) => this.index.query(q.vector, q.topK, q.filter));
  }

  setCards(cards: { id: string; card: VectorCard }[]): void {
    const sql = this.ctx.storage.sql;
    for (const { id, card } of cards) sql.exec("UPDATE vec SET card = ? WHERE id = ?", JSON.stringify(card), id);
  }

  /** Cards live only in the object's SQLite (not in memory): read for the matches, ~100 rows by primary key. */
  queryCards(vector: Float32Array, topK: number, filter?: VectorFilter): VectorCardMatch[] {
    const matches = this.index.query(vector, topK, filter);
    if (!matches.length) return [];
    const cards = new Map<string, string | null>();
    for (const row of this.ctx.storage.sql.exec<{ id: string; card: string | null }>(
      "SELECT id, card FROM vec WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(matches.map((m) => m.id)),
    )) {
      cards.set(row.id, row.card);
    }
    return matches.map((m) => {
      const card = cards.get(m.id);
      return { ...m, card: card ? (JSON.parse(card) as VectorCard) : null };
    });
  }

  /** One memory operation of this team (the object is the team: its name is the verified token's team id). */
  /**
   * One MemoryStore operation on this team's rows. A refused statement (a constraint, a rolled-back transaction) comes
   * back as a value, not a throw: workerd reports an RPC method's throw as an uncaught exception of the object, and
   * the Worker-side adapter rethrows it to its caller anyway.
   */
  async memoryCall<K extends MemoryOp>(
    op: K,
    args: Parameters<Ops[K]>,
  ): Promise<MemoryCallOutcome<Awaited<ReturnType<Ops[K]>>>> {
    if (!MEMORY_OPS.includes(op)) return { ok: false, error: `unknown memory operation: ${String(op)}` };
    const fn = this.memory[op] as (...a: unknown[]) => ReturnType<Ops[K]>;
    try {
      return { ok: true, value: await fn.apply(this.memory, args) };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The daily memory lifecycle for this team: decay, tier moves, deletes and TTL expiry, in one transaction. */
  memorySweep(now: number, rules: TierRules): TeamSweepCounts {
    return sweepTeamMemory(this.ctx.storage, this.memory, now, rules);
  }

  /**
   * Appends the team's acknowledged decisions to its journal and arms the flush; durable when it returns (the row
   * and the alarm commit together). Refusals come back as values, like memoryCall's.
   */
  async journalAppend(teamId: string, decisions: LoggedDecision[]): Promise<MemoryCallOutcome<number>> {
    const foreign = decisions.find((d) => d.team_id !== teamId);
    if (foreign) return { ok: false, error: `decision ${foreign.decision_id} is not of team ${teamId}` };
    if (decisions.length === 0) return { ok: true, value: 0 };
    return this.journalAppends.submit(decisions);
  }

  /**
   * Concurrent appends share one statement, hence one SQLite commit: locally each commit is a disk sync that holds the
   * object's thread, and one commit per decide made decide wait in line (0.12× the bare route; 0.24× shared).
   */
  private readonly journalAppends = new SharedCommit<LoggedDecision[], MemoryCallOutcome<number>>(async (appends) => {
    try {
      const inserted = this.journal.append(appends.flat());
      if (inserted.length > 0 && !this.flushArmed) {
        if ((await this.ctx.storage.getAlarm()) === null)
          await this.ctx.storage.setAlarm(Date.now() + JOURNAL_FLUSH_DELAY_MS);
        this.flushArmed = true;
      }
      const shares = sharesOfAdded(
        appends.map((a) => a.map((d) => d.decision_id)),
        inserted,
      );
      return shares.map((value) => ({ ok: true as const, value }));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      return appends.map(() => ({ ok: false as const, error }));
    }
  });

  /** The decisions waiting in the journal, oldest first (tests and inspection). */
  journalRows(): LoggedDecision[] {
    return this.journal.list();
  }

  /** The one alarm: flush the decision journal (the object has no other timer). */
  override async alarm(): Promise<void> {
    this.flushArmed = false;
    await this.flushDecisions(makeJournalFlushNeeds(this.env));
  }

  /**
   * One flush of the journal into the decision log; re-arms at once while rows remain, with backoff after a failure
   * (the rows stay; an R2 refusal is counted as an outage by the writer). Flushed ids older than a day are forgotten.
   */
  async flushDecisions(needs: JournalFlushNeeds): Promise<void> {
    try {
      const { more } = await flushJournal(this.journal, needs, JOURNAL_FLUSH_LIMIT);
      this.journalFailures = 0;
      this.journal.pruneDone(needs.clock.now() - JOURNAL_DONE_TTL_MS);
      if (more) {
        await this.ctx.storage.setAlarm(Date.now());
        this.flushArmed = true;
      }
    } catch (e) {
      this.journalFailures++;
      const delay = journalRetryDelay(this.journalFailures);
      log.error("decision journal flush failed; retrying by alarm", { delay_ms: delay, error: String(e) });
      await this.ctx.storage.setAlarm(Date.now() + delay);
      this.flushArmed = true;
    }
  }

  size(): number {
    return this.index.size;
  }

  accelerated(): boolean {
    return this.index.accelerated;
  }
}
