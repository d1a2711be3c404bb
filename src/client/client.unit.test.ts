// The typed client in plain Node: URL and auth header, success bodies, the error envelope and an unreachable server.
import { describe, expect, it } from "vitest";
import { createApi, unwrap, WardenError } from "./index.ts";

function fake(status: number, body: unknown) {
  const seen: Request[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json" },
    });
  }) as typeof fetch;
  return { f, seen };
}

describe("createApi / unwrap", () => {
  it("calls the typed path with the bearer token and returns the success body", async () => {
    const { f, seen } = fake(201, { run_id: "run_1", status: "PENDING", hints: [], policy_snapshot: {} });
    const api = createApi({ baseUrl: "http://warden.test/", token: "tok", fetch: f });
    const run = await unwrap(api.v1.runs.$post({ json: { goal: "g" } }));
    expect(run.run_id).toBe("run_1");
    expect(seen[0]?.url).toBe("http://warden.test/v1/runs");
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer tok");
    expect(await seen[0]?.json()).toEqual({ goal: "g" });
  });

  it("fills path parameters", async () => {
    const { f, seen } = fake(200, { run_id: "r 1" });
    const api = createApi({ baseUrl: "http://warden.test", fetch: f });
    await unwrap(api.v1.runs[":run_id"]["explain-exit"].$get({ param: { run_id: "r1" } }));
    expect(seen[0]?.url).toBe("http://warden.test/v1/runs/r1/explain-exit");
    expect(seen[0]?.headers.get("authorization")).toBeNull();
    expect(seen[0]?.headers.get("x-warden-channel")).toBeNull();
  });

  it("sends the channel as X-Warden-Channel, on gate decisions too", async () => {
    const { f, seen } = fake(200, { gate_id: "g1", status: "approved" });
    const api = createApi({ baseUrl: "http://warden.test", token: "t", channel: "cli", fetch: f });
    await api.v1.gates[":gate_id"].decision.$post({ param: { gate_id: "g1" }, json: { decision: "approve_retry" } });
    expect(seen[0]?.headers.get("x-warden-channel")).toBe("cli");
    const web = createApi({ baseUrl: "http://warden.test", token: "t", channel: "web", fetch: f });
    await web.v1.approvals.$post({
      json: { run_id: "r1", op_id: "o1", policy_key: "k", decision: "approve_retry" },
    });
    expect(seen[1]?.headers.get("x-warden-channel")).toBe("web");
  });

  it("throws a WardenError carrying the envelope's code, message and request id", async () => {
    const { f } = fake(422, { error: { code: "redaction_required", message: "holds a secret", request_id: "req_9" } });
    const api = createApi({ baseUrl: "http://warden.test", token: "t", fetch: f });
    const e = await unwrap(api.v1.memory.$post({ json: { namespace: "team/a/org", class: "kb", text: "x" } })).catch(
      (x) => x,
    );
    expect(e).toBeInstanceOf(WardenError);
    expect(e).toMatchObject({ status: 422, code: "redaction_required", message: "holds a secret", requestId: "req_9" });
  });

  it("names a non-envelope error by its status, and an unreachable server as status 0", async () => {
    const { f } = fake(502, "bad gateway");
    const e = await unwrap(createApi({ baseUrl: "http://warden.test", fetch: f }).healthz.$get()).catch((x) => x);
    expect(e).toMatchObject({ status: 502, code: "http_502" });
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const e2 = await unwrap(createApi({ baseUrl: "http://warden.test", fetch: down }).healthz.$get()).catch((x) => x);
    expect(e2).toMatchObject({ status: 0, code: "unavailable" });
  });

  it("types the fleet, inbox and views routes: query strings, path parameters, and 204 as undefined", async () => {
    const { f, seen } = fake(204, undefined);
    const api = createApi({ baseUrl: "http://warden.test", token: "t", fetch: f });
    expect(await unwrap(api.v1.orders["lease-next"].$post({ json: { worker_id: "w1", skills: ["extract"] } }))).toBe(
      undefined,
    );
    expect(seen[0]?.url).toBe("http://warden.test/v1/orders/lease-next");
    await api.v1.runs.$get({ query: { status: "RUNNING", cursor: "c1" } });
    expect(seen[1]?.url).toBe("http://warden.test/v1/runs?status=RUNNING&cursor=c1");
    await api.v1.gates.$get({ query: { status: "open" } });
    expect(seen[2]?.url).toBe("http://warden.test/v1/gates?status=open");
    await api.v1.gates[":gate_id"].decision.$post({ param: { gate_id: "g1" }, json: { decision: "deny", note: "no" } });
    expect(seen[3]?.url).toBe("http://warden.test/v1/gates/g1/decision");
    expect(await seen[3]?.json()).toEqual({ decision: "deny", note: "no" });
    await api.v1.views.$post({ json: { kind: "team" } });
    expect(seen[4]?.url).toBe("http://warden.test/v1/views");
  });
});

describe("the client's type derives from the feature list", () => {
  it("reaches the /v1 routes the hand-kept list had lost (tsc fails if one is missing from the type)", async () => {
    const { f, seen } = fake(200, {});
    const api = createApi({ baseUrl: "http://warden.test", token: "t", fetch: f });
    await api.v1.policy.classes.$get();
    await api.v1.routes.overrides.$post({ json: { route: "r", target: "t" } as never });
    await api.v1.slack.installation.$put({ json: {} as never });
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "GET /v1/policy/classes",
      "POST /v1/routes/overrides",
      "PUT /v1/slack/installation",
    ]);
  });
});
