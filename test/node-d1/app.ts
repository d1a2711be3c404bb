// The whole Warden app in Node over the D1 stand-in: routes, middleware and the error mapper as the Worker composes them,
// answered by `app.request()` without workerd — for routes whose services need only D1 (no run or board object, queue
// or R2 behind them, or only the decision log's bucket, the teams' decision journals and the EVENTS producer, whose
// stand-ins are in test/fakes/node-stand-ins.ts); the others stay in the workers project.
import { readFileSync } from "node:fs";
import { createApp } from "../../src/app";
import { mintToken } from "../../src/auth/mint";
import { SCOPES, type Scope } from "../../src/auth/tokens";
import { makeDeps } from "../../src/deps";
import {
  createMemoryDecisionJournal,
  createMemoryDecisionObjects,
  createRecordingEventBus,
} from "../fakes/node-stand-ins";
import { nodeD1 } from "./d1";

const SECRET = "node-test-secret-0123456789abcdef0123456789abcdef";

/** wrangler.toml's [vars] (the version /healthz reports, the embedder, the limiter kind), as workerd's env has them. */
function wranglerVars(): Record<string, string> {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const block = toml.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...block.matchAll(/^([A-Z_]+) = "([^"]*)"$/gm)].map((m) => [m[1], m[2]]));
}

/** An ExecutionContext whose waitUntil work the caller can await (`settle`), so a request's deferred writes land. */
function executionContext() {
  const pending: Promise<unknown>[] = [];
  return {
    ctx: { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} },
    settle: async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
}

/** What a test passes to `call`, as `test/helpers.ts` takes it: a bearer token, a JSON body (strings as written). */
export type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string> };

export async function nodeWarden() {
  const env = { ...wranglerVars(), DB: await nodeD1(), WARDEN_JWT_SECRET: SECRET } as unknown as Env;
  const events = createRecordingEventBus();
  const decisionJournal = createMemoryDecisionJournal();
  const deps = makeDeps(env, { events, decisionObjects: createMemoryDecisionObjects(), decisionJournal });
  const app = createApp();
  return {
    db: env.DB,
    /** the events the app published to EVENTS (no consumer runs in Node) */
    events,
    /** the decisions decide handed to their teams' journals (no team object or alarm in Node) */
    decisionJournal,
    token: (teamId: string, scopes: Scope[], sub = `user-${teamId}`) =>
      mintToken({ secret: SECRET, teamId, scopes, sub }),
    /** One request through the app; the answer's status, headers and body (JSON when it parses). */
    async call(method: string, path: string, opts: CallOptions = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
        headers["content-type"] ??= "application/json";
      }
      const { ctx, settle } = executionContext();
      const res = await app.request(`https://warden.test${path}`, { method, headers, body }, { deps } as never, ctx);
      const text = await res.text();
      await settle();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}

/**
 * `call`, `token` and `teamTokens` with the signatures of `test/helpers.ts` and `test/run-helpers.ts`, over one fresh
 * `nodeWarden()`: a feature test file moves from workerd to Node by importing these instead (`await nodeHelpers()`).
 */
export async function nodeHelpers() {
  const w = await nodeWarden();
  const token = (
    teamId = "team-a",
    scopes: Scope[] = [...SCOPES],
    extra: Omit<Partial<Parameters<typeof mintToken>[0]>, "secret"> = {},
  ) => mintToken({ secret: SECRET, teamId, scopes, sub: `user-${teamId}`, ...extra });
  const teamTokens = async (teamId: string) => ({
    worker: await token(teamId, undefined, { sub: `worker-${teamId}` }),
    approver: await token(teamId, undefined, { sub: `approver-${teamId}` }),
    admin: await token(teamId, undefined, { sub: `admin-${teamId}` }),
  });
  return { db: w.db, call: w.call, token, teamTokens };
}
