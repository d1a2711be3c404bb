// Memory test harness: the app over real local D1 and VectorIndexDO, with a settable clock and a recording event bus.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../src/app";
import { mintToken } from "../src/auth/mint";
import { createTokenVerifier } from "../src/auth/tokens";
import { type Deps, makeDeps } from "../src/deps";
import type { EventBus, WardenEvent } from "../src/ports/event-bus";
import { apiRequest, type CallOptions, readResponse } from "./helpers";
import { teamMemoryCount } from "./team-memory";

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

export function memoryHarness(overrides: Partial<Deps> = {}) {
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
    const ctx = createExecutionContext();
    // capture console output of this request so tests can check nothing sensitive is logged
    const originals = { warn: console.warn, error: console.error, log: console.log };
    const capture = (...a: unknown[]) => logs.push(a.map(String).join(" "));
    console.warn = capture;
    console.error = capture;
    console.log = capture;
    let res: Response;
    try {
      res = await app.fetch(apiRequest(method, path, opts), { deps }, ctx);
      await waitOnExecutionContext(ctx);
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
export const freshTeam = (label = "t") => `${label}-${++teamSeq}-${crypto.randomUUID().slice(0, 8)}`;

/** A token of the team with memory:read and memory:write, minted now. */
export const memoryToken = (teamId: string) =>
  mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId,
    scopes: ["memory:read", "memory:write"],
    sub: `u-${teamId}`,
    nowSeconds: Math.floor(Date.now() / 1000),
  });

/** How many memories (mem_doc rows) the team has in its team object. */
export const memDocCount = (teamId: string) => teamMemoryCount(teamId);
