// The one feature list: every route the app documents comes from a route group of FEATURES, which the typed client's
// type derives from (so no /v1 route can be missing from the client), and the Worker's queues and crons come from it.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../test/node-d1/app";
import { FEATURES } from ".";

const { call } = await nodeHelpers();

/** `/v1/runs/{run_id}` (OpenAPI) and `/v1/runs/:run_id` (hono) are one path. */
const openApiPath = (honoPath: string) => honoPath.replace(/:(\w+)/g, "{$1}");

const listed = () =>
  new Set(FEATURES.flatMap((f) => f.routes.flatMap((g) => g.routes.map((r) => `${r.method} ${openApiPath(r.path)}`))));

describe("FEATURES, the one list", () => {
  it("holds every documented route, /v1 ones included, in a route group the typed client derives from", async () => {
    const doc = (await call("GET", "/openapi.json")).json as { paths: Record<string, Record<string, unknown>> };
    const inList = listed();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(40);
    expect(documented.filter((route) => !inList.has(route))).toEqual([]);
    // the three /v1 routes the hand-kept client list had lost
    for (const route of ["GET /v1/policy/classes", "POST /v1/routes/overrides", "PUT /v1/slack/installation"]) {
      expect(documented).toContain(route);
      expect(inList.has(route), route).toBe(true);
    }
  });

  it("names each feature once and gives each queue one consumer", () => {
    const names = FEATURES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const queues = FEATURES.flatMap((f) => ("queues" in f ? Object.keys(f.queues) : []));
    expect(new Set(queues).size).toBe(queues.length);
    expect(queues.sort()).toEqual([
      "warden-events",
      "warden-events-dlq",
      "warden-slack-outbox",
      "warden-slack-outbox-dlq",
    ]);
  });

  it("answers every cron of wrangler.toml", () => {
    const crons = FEATURES.flatMap((f) => ("crons" in f ? [...f.crons.crons] : []));
    expect(crons.sort()).toEqual(["*/5 * * * *", "17 3 * * *"]);
  });
});
