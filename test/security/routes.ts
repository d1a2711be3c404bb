// The API as the security rows see it, shared by workerd and Node: the capability-token routes of an /openapi.json
// document, concrete paths, a raw answer read once, and the one error envelope.

export type Route = { method: string; path: string; body: boolean; op: any };

/** Every route of `doc` behind a capability token, sorted (POST /v1/tokens takes an API key: the fuzz adds it by hand). */
export function routesOf(doc: any): Route[] {
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths))
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

/** A response read once: status, raw text and the parsed JSON (undefined when it is not JSON). */
export async function readRaw(res: Response) {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text };
}

export type RawAnswer = Awaited<ReturnType<typeof readRaw>>;

/** Requests' background work (waitUntil) still running, and what any of it threw: the answer does not wait for it. */
export function backgroundWork() {
  const pending = new Set<Promise<void>>();
  const errors: unknown[] = [];
  return {
    add(work: Promise<unknown>): void {
      const done = work.then(
        () => undefined,
        (e: unknown) => void errors.push(e),
      );
      pending.add(done);
      void done.finally(() => pending.delete(done));
    },
    /** Waits for all of it so far; throws the first error any of it threw. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
      const [first] = errors.splice(0);
      if (first !== undefined) throw first;
    },
  };
}

/** The one error envelope: `{ error: { code, message, request_id } }`. */
export const isEnvelope = (json: any) =>
  typeof json?.error?.code === "string" &&
  typeof json?.error?.message === "string" &&
  typeof json?.error?.request_id === "string";
