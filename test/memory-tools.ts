// The memory tests' harness for either runtime (workerd: test/memory-harness.ts; Node: test/node-d1/memory.ts): the app
// over D1 and the team objects (VectorIndexDO) with a settable clock and a recording event bus, and the objects' rows.
import { count } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { VectorIndexDO } from "../durable-objects/vector-index-do";
import { createTeamMemoryImport } from "../src/adapters/do/team-memory-store";
import { createApp } from "../src/app";
import { mintToken } from "../src/auth/mint";
import { createTokenVerifier } from "../src/auth/tokens";
import { type Deps, makeDeps } from "../src/deps";
import { memActorImportance, memDocs, memUseEvents } from "../src/features/memory/store/tables";
import type { EventBus, WardenEvent } from "../src/ports/event-bus";
import { apiRequest, type CallOptions, readResponse } from "./http";
import { teamObjectTables } from "./team-object-tables";

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** What a runtime gives the memory tools: its env (D1, VECTOR_INDEX, the secret) and workerd's test hooks. */
export type MemoryRuntime = {
  env: Env;
  runIn<R>(stub: object, fn: (instance: VectorIndexDO, state: DurableObjectState) => R | Promise<R>): Promise<R>;
  /** an ExecutionContext and the wait for its waitUntil work */
  executionContext(): { ctx: ExecutionContext; settle(): Promise<void> };
};

export function memoryTools(rt: MemoryRuntime) {
  const { env } = rt;
  const teamObject = (teamId: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(teamId));

  /** Runs one SQL statement in the team's object and returns its rows (the object's tables have no team_id). */
  function teamMemoryRows<T extends Record<string, SqlStorageValue>>(
    teamId: string,
    query: string,
    ...params: SqlStorageValue[]
  ): Promise<T[]> {
    return rt.runIn(teamObject(teamId), (_o, state) => state.storage.sql.exec<T>(query, ...params).toArray());
  }

  const tables = teamObjectTables((teamId, fn) => rt.runIn(teamObject(teamId), (_o, state) => fn(state.storage)));

  /**
   * The number of memories (mem_doc rows) in the team's object, optionally of one class: all of them is the object's
   * own count (its import digest); one class, its rows read through the memory tables' drizzle descriptors.
   */
  async function teamMemoryCount(teamId: string, cls?: string): Promise<number> {
    if (!cls) return (await createTeamMemoryImport(env.VECTOR_INDEX).digest(teamId)).count;
    return (await tables.docs(teamId)).filter((d) => d.class === cls).length;
  }

  /** Rows of D1's own memory tables (all teams, their drizzle tables): the team objects hold memory, so these stay 0. */
  async function d1MemoryRowCount(): Promise<number> {
    const db = drizzle(env.DB);
    const counts = await Promise.all(
      [memDocs, memActorImportance, memUseEvents].map(
        async (t) => (await db.select({ c: count() }).from(t))[0]?.c ?? 0,
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  function memoryHarness(overrides: Partial<Deps> = {}) {
    let now = T0;
    /** what was published, each readable field by field (the tests look at any member's fields) */
    const published: (WardenEvent & Record<string, unknown>)[] = [];
    const events: EventBus = {
      publish: async (e) => {
        published.push(...e);
      },
    };
    // tokens are minted on the wall clock; memory time is the test's clock
    const verify = createTokenVerifier(env.WARDEN_JWT_SECRET);
    const deps = makeDeps(env, {
      events,
      clock: { now: () => now },
      verifyToken: (token) => verify(token, Date.now()),
      ...overrides,
    });
    const app = createApp();
    const logs: string[] = [];

    async function call(method: string, path: string, opts: CallOptions = {}) {
      const { ctx, settle } = rt.executionContext();
      // capture console output of this request so tests can check nothing sensitive is logged
      const originals = { warn: console.warn, error: console.error, log: console.log };
      const capture = (...a: unknown[]) => logs.push(a.map(String).join(" "));
      console.warn = capture;
      console.error = capture;
      console.log = capture;
      let res: Response;
      try {
        res = await app.fetch(apiRequest(method, path, opts), { deps }, ctx);
        await settle();
      } finally {
        Object.assign(console, originals);
      }
      return readResponse(res);
    }

    return {
      deps,
      call,
      published,
      logs,
      now: () => now,
      setNow: (t: number) => {
        now = t;
      },
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  let teamSeq = 0;
  /** a fresh team id per test, so tests sharing the file's storage never see each other's memories */
  const freshTeam = (label = "t") => `${label}-${++teamSeq}-${crypto.randomUUID().slice(0, 8)}`;

  /** A token of the team with memory:read and memory:write, minted now. */
  const memoryToken = (teamId: string) =>
    mintToken({
      secret: env.WARDEN_JWT_SECRET,
      teamId,
      scopes: ["memory:read", "memory:write"],
      sub: `u-${teamId}`,
      nowSeconds: Math.floor(Date.now() / 1000),
    });

  /** How many memories (mem_doc rows) the team has in its team object. */
  const memDocCount = (teamId: string) => teamMemoryCount(teamId);

  return {
    memoryHarness,
    freshTeam,
    memoryToken,
    memDocCount,
    teamMemoryRows,
    teamMemoryCount,
    d1MemoryRowCount,
    teamTables: tables,
  };
}
