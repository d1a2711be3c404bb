// GET/PUT /v1/artifacts/retention over the worker: defaults, a team's shorter days stored and audited, every refusal
// (above the default, below a day, unknown kind, wrong scope, run-bound token) with nothing stored, other teams untouched.
// In Node over the stand-ins (nodeWarden); stored rows read through the artifacts feature's drizzle tables and the
// audit entries through GET /v1/audit.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { helpersOver, nodeWarden } from "../../../test/node-d1/app";
import { responseFetch } from "../../../test/node-d1/artifacts";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { tableRows } from "../../../test/node-d1/table-rows";
import { createApi, unwrap } from "../../client";
import { DAY_MS, DEFAULT_RETENTION_DAYS } from "./domain";
import { artifactRetention, artifacts } from "./store/tables";

const w = await nodeWarden();
const h = helpersOver(w);
const { call, fetch, startRun, token } = h;
const { audited } = nodeGateTools(h);
const recordRows = tableRows(h);

const PATH = "/v1/artifacts/retention";

async function sha256(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

const defaults = () =>
  Object.fromEntries(
    Object.entries(DEFAULT_RETENTION_DAYS).map(([k, d]) => [k, { days: d, default_days: d, source: "default" }]),
  );

/** the team's artifact_retention rows and its retention audit entries: what a refused PUT must leave empty */
async function storedFor(teamId: string) {
  const settings = await recordRows(artifactRetention, eq(artifactRetention.teamId, teamId), {
    kind: artifactRetention.kind,
    days: artifactRetention.days,
  });
  const audits = await audited(teamId, "artifact_retention.updated");
  return {
    settings: settings.sort((a, b) => String(a.kind).localeCompare(String(b.kind))),
    audits: audits.map((a) => a.metadata),
  };
}

describe("GET /v1/artifacts/retention", () => {
  it("answers the deployment defaults for every kind to a runs:read token of a team without settings", async () => {
    const r = await call("GET", PATH, { token: await token("ret-s0", ["runs:read"]) });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ team_id: "ret-s0", retention: defaults() });
  });
});

describe("PUT /v1/artifacts/retention", () => {
  it("stores the named kinds for this team only, audited, and answers the effective retention", async () => {
    const admin = await token("ret-s1", ["policy:admin", "runs:read"]);
    const r = await call("PUT", PATH, { token: admin, body: { days: { log: 7, trace: 30 } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.retention).toEqual({
      ...defaults(),
      log: { days: 7, default_days: 30, source: "team" },
      trace: { days: 30, default_days: 30, source: "team" },
    });
    expect((await call("GET", PATH, { token: admin })).json).toEqual(r.json);
    expect(await storedFor("ret-s1")).toEqual({
      settings: [
        { kind: "log", days: 7 },
        { kind: "trace", days: 30 },
      ],
      audits: [{ days: { log: 7, trace: 30 } }],
    });
    // another team keeps the defaults
    const other = await call("GET", PATH, { token: await token("ret-s1-other", ["runs:read"]) });
    expect(other.json.retention).toEqual(defaults());

    const again = await call("PUT", PATH, { token: admin, body: { days: { log: 14 } } });
    expect(again.json.retention.log).toEqual({ days: 14, default_days: 30, source: "team" });
    expect(again.json.retention.trace.days).toBe(30);
  });

  it("refuses a kind above its deployment default with 422 naming the kind and the bound; nothing stored", async () => {
    const admin = await token("ret-s2", ["policy:admin"]);
    for (const days of [{ log: 31 }, { json: 91, log: 7 }, { blob: 10, trace: 365 }]) {
      const r = await call("PUT", PATH, { token: admin, body: { days } });
      expect(r.status, JSON.stringify(days)).toBe(422);
      expect(r.json.error.code).toBe("rejected");
      const [kind, value] = Object.entries(days).find(([k, d]) => d > DEFAULT_RETENTION_DAYS[k as "log"]) ?? [];
      const bound = DEFAULT_RETENTION_DAYS[kind as "log"];
      expect(r.json.error.message).toContain(`${kind}: ${value} days is above the deployment default of ${bound} days`);
    }
    expect(await storedFor("ret-s2")).toEqual({ settings: [], audits: [] });
  });

  it("refuses less than a day, fractions, unknown kinds and an empty change with 400; nothing stored", async () => {
    const admin = await token("ret-s3", ["policy:admin"]);
    for (const body of [
      { days: { log: 0 } },
      { days: { log: -3 } },
      { days: { blob: 1.5 } },
      { days: { log: "7" } },
      { days: { video: 7 } },
      { days: {} },
      { log: 7 },
      "not json",
    ]) {
      const r = await call("PUT", PATH, { token: admin, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe(body === "not json" ? "invalid_json" : "validation_failed");
    }
    expect(await storedFor("ret-s3")).toEqual({ settings: [], audits: [] });
  });

  it("is policy:admin only, never from a run-bound token; nothing stored", async () => {
    const reader = await token("ret-s4", ["runs:read", "runs:write"]);
    expect((await call("PUT", PATH, { token: reader, body: { days: { log: 7 } } })).status).toBe(403);
    const bound = await token("ret-s4", ["policy:admin"], { runId: "run_x" });
    expect((await call("PUT", PATH, { token: bound, body: { days: { log: 7 } } })).status).toBe(403);
    expect((await call("PUT", PATH, { body: { days: { log: 7 } } })).status).toBe(401);
    expect(await storedFor("ret-s4")).toEqual({ settings: [], audits: [] });
  });

  it("gives a new upload of the kind the team's days, and another kind the default", async () => {
    const admin = await token("ret-s5");
    expect((await call("PUT", PATH, { token: admin, body: { days: { log: 3 } } })).status).toBe(200);
    const run = await startRun(admin);
    const bound = await token("ret-s5", undefined, { sub: "agent", runId: run.run_id });
    for (const [kind, text, days] of [
      ["log", "step 1 ok\n", 3],
      ["json", '{"ok":1}', DEFAULT_RETENTION_DAYS.json],
    ] as const) {
      const body = new TextEncoder().encode(text);
      const digest = await sha256(body);
      const up = await fetch(
        new Request(`https://warden.test/v1/runs/${run.run_id}/artifacts`, {
          method: "POST",
          headers: { authorization: `Bearer ${bound}`, "x-artifact-kind": kind, "x-sha256": digest },
          body,
        }),
      );
      expect(up.status, up.text).toBe(201);
      const [row] = await recordRows(artifacts, eq(artifacts.artifactId, up.json.artifact_id), {
        created_at: artifacts.createdAt,
        expires_at: artifacts.expiresAt,
      });
      expect(row && row.expires_at - row.created_at).toBe(days * DAY_MS);
    }
  });
});

describe("the retention routes in the API's description", () => {
  it("are in the OpenAPI document and the typed client (which sets and reads a team's days)", async () => {
    const doc = await call("GET", "/openapi.json");
    expect(doc.json.paths[PATH].get).toBeDefined();
    expect(doc.json.paths[PATH].put).toBeDefined();
    const tok = await token("ret-s6", ["policy:admin", "runs:read"]);
    const api = createApi({ baseUrl: "https://warden.test", token: tok, fetch: responseFetch(w) });
    const put = await unwrap(api.v1.artifacts.retention.$put({ json: { days: { blob: 5 } } }));
    expect(put.retention.blob).toEqual({ days: 5, default_days: DEFAULT_RETENTION_DAYS.blob, source: "team" });
    const got = await unwrap(api.v1.artifacts.retention.$get());
    expect(got).toEqual(put);
  });
});
