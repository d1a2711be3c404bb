// The matrix's view of the API: the capability-token routes listed by /openapi.json, raw requests, the error envelope.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import { call } from "../helpers";

export type Route = { method: string; path: string; body: boolean; op: any };

/** The OpenAPI document the worker serves (every route's schemas included). */
export const openapi = async () => (await call("GET", "/openapi.json")).json;

/** Every route behind a capability token, sorted (POST /v1/tokens takes an API key: the fuzz adds it by hand). */
export async function bearerRoutes(doc?: any): Promise<Route[]> {
  const d = doc ?? (await openapi());
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries<any>(d.paths))
    for (const [method, op] of Object.entries<any>(ops))
      if (op.security?.[0]?.bearerAuth)
        // body: a JSON body (a raw-bytes upload, the artifacts route, is fuzzed by its own tests)
        routes.push({
          method: method.toUpperCase(),
          path,
          body: Boolean(op.requestBody?.content?.["application/json"]),
          op,
        });
  return routes.sort((a, b) => `${a.path}${a.method}`.localeCompare(`${b.path}${b.method}`));
}

/** A concrete path for a route: its parameters filled in. */
export const concrete = (path: string, ids: { run: string; order?: string; gate?: string }) =>
  path
    .replace("{run_id}", ids.run)
    .replace("{order_id}", ids.order ?? "o1")
    .replace("{gate_id}", ids.gate ?? "gate_missing");

/** How a request reaches the Worker: through workerd's service binding (SELF), or its fetch handler called in-process. */
export type Via = "self" | "in-process";

/** The background work (waitUntil) of in-process requests still running, and what any of it threw. */
const background = new Set<Promise<void>>();
const backgroundErrors: unknown[] = [];

/**
 * The Worker's own fetch handler called in this isolate, over the same bindings (real local D1, run objects, queues):
 * no trip through workerd's HTTP service binding, about 5× cheaper a request (1.2 ms against 6.4 ms in batches of 25,
 * 2.1 ms against 11.2 ms one by one, measured on the shared 2-core machine at load ~15). As with SELF, the answer does
 * not wait for the request's background work (a coalesced decision-log flush would make every decide wait for its
 * window); `inProcessSettled` waits for all of it and fails on anything it threw.
 */
async function inProcess(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  const done = waitOnExecutionContext(ctx).then(
    () => undefined,
    (e: unknown) => void backgroundErrors.push(e),
  );
  background.add(done);
  void done.finally(() => background.delete(done));
  return res;
}

/** Waits for the background work of every in-process request so far; throws the first error any of it threw. */
export async function inProcessSettled(): Promise<void> {
  while (background.size > 0) await Promise.all([...background]);
  const [first] = backgroundErrors.splice(0);
  if (first !== undefined) throw first;
}

/** A request exactly as given (no helper-added headers), read once. */
export async function raw(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
  via: Via = "self",
) {
  const request = new Request(`https://warden.test${path}`, { method, ...init });
  const res = await (via === "self" ? SELF.fetch(request) : inProcess(request));
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text };
}

/** The one error envelope: `{ error: { code, message, request_id } }`. */
export const isEnvelope = (json: any) =>
  typeof json?.error?.code === "string" &&
  typeof json?.error?.message === "string" &&
  typeof json?.error?.request_id === "string";
