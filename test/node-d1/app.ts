// The whole Warden app in Node over the D1 stand-in: routes, middleware and the error mapper as the Worker composes them,
// answered by `app.request()` without workerd — for routes whose services need only D1, the decision log's and the
// artifacts' buckets, the teams' decision journals and the queues (stand-ins in test/fakes/: node-stand-ins.ts,
// queues.ts); the run, board and team objects are test/fakes/durable-objects.ts's.
import { readFileSync } from "node:fs";
import { createApp } from "../../src/app";
import { mintToken } from "../../src/auth/mint";
import { SCOPES, type Scope } from "../../src/auth/tokens";
import { type Deps, makeDeps } from "../../src/deps";
import { dispatchQueue } from "../../src/queue-dispatch";
import {
  createMemoryArtifactObjects,
  createMemoryDecisionJournal,
  createMemoryDecisionObjects,
  createRecordingEventBus,
} from "../fakes/node-stand-ins";
import { createMemoryQueues } from "../fakes/queues";
import { apiRequest, type CallOptions, readResponse } from "../http";
import { nodeD1 } from "./d1";
import { bindNodeObjects, nodeRunHelpers } from "./objects";

export const SECRET = "node-test-secret-0123456789abcdef0123456789abcdef";

/** wrangler.toml's [vars] (the version /healthz reports, the embedder, the limiter kind), as workerd's env has them. */
export function wranglerVars(): Record<string, string> {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const block = toml.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...block.matchAll(/^([A-Z_]+) = "([^"]*)"$/gm)].map((m) => [m[1], m[2]]));
}

/** An ExecutionContext whose waitUntil work the caller can await (`settle`), so a request's deferred writes land. */
export function executionContext() {
  const pending: Promise<unknown>[] = [];
  return {
    ctx: { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} },
    settle: async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
}

export type { CallOptions } from "../http";

/**
 * `queues`: EVENTS and SLACK_OUTBOX are the queue stand-in's producers and `drain()` runs the Worker's consumers over
 * what was sent (the app's own deps), so a request's consumer effects land; without it EVENTS only records.
 * `vars`: more env (Slack secrets, SLACK_API_BASE_URL); `deps`: overrides (a fixed clock, ids).
 */
export type NodeWardenOptions = {
  queues?: boolean;
  vars?: Record<string, string>;
  /** overrides, or overrides made from the deps the env alone gives (to wrap one of them) */
  deps?: Partial<Deps> | ((base: Deps) => Partial<Deps>);
};

export async function nodeWarden(opts: NodeWardenOptions = {}) {
  const queues = opts.queues ? createMemoryQueues() : null;
  const env = {
    ...wranglerVars(),
    DB: await nodeD1(),
    WARDEN_JWT_SECRET: SECRET,
    ...opts.vars,
    ...queues?.bindings,
  } as unknown as Env;
  const events = createRecordingEventBus();
  const decisionJournal = createMemoryDecisionJournal();
  const objects = bindNodeObjects(env, events);
  const standIns: Partial<Deps> = {
    ...(queues ? {} : { events }),
    decisionObjects: createMemoryDecisionObjects(),
    decisionJournal,
    artifactObjects: createMemoryArtifactObjects(),
  };
  const deps = makeDeps(env, {
    ...standIns,
    ...(typeof opts.deps === "function" ? opts.deps(makeDeps(env)) : opts.deps),
  });
  queues?.consumeWith((batch) => dispatchQueue(batch, deps));
  const app = createApp();
  /** One request through the app, its waitUntil work awaited; the answer's status, headers and body (JSON when it parses). */
  const fetch = async (req: Request, over: Deps = deps) => {
    const { ctx, settle } = executionContext();
    const answer = await readResponse(await app.fetch(req, { deps: over }, ctx as never));
    await settle();
    return answer;
  };
  return {
    db: env.DB,
    env,
    /** the services the app is composed over (makeDeps(env) in a workerd test) */
    deps,
    /** fresh services over the same env and stand-ins (`makeDeps(env, overrides)` in a workerd test: an isolate's own caches) */
    depsWith: (overrides: Partial<Deps> = {}) => makeDeps(env, { ...standIns, ...overrides }),
    /** the RUN, BOARD and VECTOR_INDEX namespaces (Node stand-in) the app's objects live in */
    objects,
    /** the events the app published to EVENTS (when EVENTS is not the queue stand-in) */
    events,
    /** the queue stand-in (with `queues: true`) */
    queues,
    /** runs the queues' consumers until nothing is left (with `queues: true`) */
    drain: async () => {
      if (!queues) throw new Error("nodeWarden: drain() needs { queues: true }");
      return queues.drain();
    },
    /** the decisions decide handed to their teams' journals (no team object or alarm in Node) */
    decisionJournal,
    token: (teamId: string, scopes: Scope[], sub = `user-${teamId}`) =>
      mintToken({ secret: SECRET, teamId, scopes, sub }),
    /**
     * One request through the app; the answer's status, headers and body (JSON when it parses). `over`: other deps
     * than the app's own (a fixed clock from `depsWith`).
     */
    call: (method: string, path: string, opts: CallOptions = {}, over: Deps = deps) =>
      fetch(apiRequest(method, path, opts), over),
    /** any Request through the app (SELF.fetch in a workerd test: another origin or Host), answered as `call` answers */
    fetch,
    /**
     * One request exactly as given (no helper-added headers): the answer at once and, apart, its waitUntil work (as
     * workerd answers before a request's background work ends).
     */
    async fetchRaw(request: Request) {
      const { ctx, settle } = executionContext();
      const response = await app.request(request, undefined, { deps } as never, ctx);
      return { response, background: settle() };
    },
  };
}

/**
 * `call`, `token` and `teamTokens` with the signatures of `test/helpers.ts` and `test/run-helpers.ts`, over one fresh
 * `nodeWarden()`: a feature test file moves from workerd to Node by importing these instead (`await nodeHelpers()`).
 */
export async function nodeHelpers(opts: NodeWardenOptions = {}) {
  return helpersOver(await nodeWarden(opts));
}

/** nodeHelpers' helpers over a warden already composed (nodeSlackWarden's, say). */
export function helpersOver(w: Awaited<ReturnType<typeof nodeWarden>>) {
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
  return {
    db: w.db,
    env: w.env,
    deps: w.deps,
    depsWith: w.depsWith,
    objects: w.objects,
    fetch: w.fetch,
    /** runs the queues' consumers until nothing is left (with `queues: true`) */
    drainQueues: w.drain,
    call: w.call,
    token,
    teamTokens,
    ...nodeRunHelpers(w),
  };
}
