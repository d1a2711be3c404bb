// The matrix's view of the API: the capability-token routes listed by /openapi.json, raw requests, the error envelope.
import { SELF } from "cloudflare:test";
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

/** A request exactly as given (no helper-added headers), read once. */
export async function raw(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
) {
  const res = await SELF.fetch(new Request(`https://warden.test${path}`, { method, ...init }));
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
