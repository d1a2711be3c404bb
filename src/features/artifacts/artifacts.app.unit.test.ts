// Artifacts over the worker with local D1, R2 and run objects: upload/download round trip, every refusal with nothing
// stored, the guard (secret refused, personal data held behind the hard pii_detected gate), signed links. In Node over the
// stand-ins (nodeWarden: D1, the run objects, the artifacts bucket held to the R2 adapter's contract).
import { describe, expect, it } from "vitest";
import { helpersOver, nodeWarden } from "../../../test/node-d1/app";
import { nodeArtifactTools, responseFetch } from "../../../test/node-d1/artifacts";
import { mintViewToken } from "../../auth/view-token";
import { TEXT_ARTIFACT_MAX_BYTES } from "./domain";

const w = await nodeWarden();
const h = helpersOver(w);
const { call, drainAll, env, fetch, leasedOrder, startRun, teamTokens, token } = h;
const { artifactRows, objectKeys, objectText } = nodeArtifactTools(h);
/** SELF.fetch: the app's Response itself (bytes, not text) */
const selfFetch = responseFetch(w);
const encoder = new TextEncoder();

async function sha256(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

type Lease = { runId: string; orderId: string; lease: { lease_id: string; epoch: number } };
type Upload = {
  tok: string;
  runId: string;
  bytes: Uint8Array | string;
  kind?: string;
  lease?: Lease;
  headers?: Record<string, string>;
};

async function uploadRequest(u: Upload): Promise<Request> {
  const bytes = typeof u.bytes === "string" ? encoder.encode(u.bytes) : u.bytes;
  const headers: Record<string, string> = {
    authorization: `Bearer ${u.tok}`,
    "content-type": "text/plain; charset=utf-8",
    "x-artifact-kind": u.kind ?? "log",
    "x-sha256": await sha256(bytes),
    "x-op-id": "op-1",
  };
  if (u.lease) {
    headers["x-order-id"] = u.lease.orderId;
    headers["x-lease-id"] = u.lease.lease.lease_id;
    headers["x-lease-epoch"] = String(u.lease.lease.epoch);
  }
  return new Request(`https://warden.test/v1/runs/${u.runId}/artifacts`, {
    method: "POST",
    headers: { ...headers, ...u.headers },
    body: bytes,
  });
}

const upload = async (u: Upload) => fetch(await uploadRequest(u));

async function stored(teamId: string) {
  return { objects: (await objectKeys(teamId)).length, rows: (await artifactRows(teamId)).length };
}

describe("POST /v1/runs/:run_id/artifacts and GET /v1/artifacts/:id", () => {
  it("stores the lease holder's artifact in R2 and streams the same bytes back", async () => {
    const t = await teamTokens("art-rt");
    const l = await leasedOrder(t.worker);
    const text = "step 1 ok\nfetched https://api.acme.test/v1/items in 120 ms\n";
    const up = await upload({ tok: t.worker, runId: l.runId, bytes: text, lease: l });
    expect(up.status, up.text).toBe(201);
    expect(up.json).toMatchObject({ run_id: l.runId, kind: "log", size_bytes: text.length, status: "released" });
    expect(up.json.sha256).toBe(await sha256(encoder.encode(text)));
    const id = up.json.artifact_id as string;
    expect(await objectText(`t/art-rt/r/${encodeURIComponent(l.runId)}/${id}`)).toBe(text);
    const down = await call("GET", `/v1/artifacts/${id}`, { token: t.worker });
    expect(down.status).toBe(200);
    expect(down.text).toBe(text);
    expect(down.headers.get("x-sha256")).toBe(up.json.sha256);
    expect(down.headers.get("content-security-policy")).toContain("sandbox");
    const list = await call("GET", `/v1/runs/${l.runId}/artifacts`, { token: t.worker });
    expect(list.json.artifacts).toMatchObject([
      { artifact_id: id, op_id: "op-1", kind: "log", size_bytes: text.length },
    ]);
    // retention: a log is kept 30 days
    expect(up.json.expires_at - list.json.artifacts[0].created_at).toBe(30 * 86_400_000);
  });

  it("round-trips 1 MiB of binary (a blob is not scanned) and accepts a run-bound token without a lease", async () => {
    const t = await teamTokens("art-blob");
    const run = await startRun(t.worker);
    const bound = await token("art-blob", undefined, { sub: "agent", runId: run.run_id });
    const bytes = new Uint8Array(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    const up = await upload({ tok: bound, runId: run.run_id, bytes, kind: "blob" });
    expect(up.status, up.text).toBe(201);
    const res = await selfFetch(`https://warden.test/v1/artifacts/${up.json.artifact_id}`, {
      headers: { authorization: `Bearer ${bound}` },
    });
    const back = new Uint8Array(await res.arrayBuffer());
    // compared by length and digest: a deep equality over a million elements is what would be slow here
    expect(back.byteLength).toBe(bytes.byteLength);
    expect(await sha256(back)).toBe(await sha256(bytes));
  });

  it("refuses a log that streams past the text cap (413, nothing stored) where a blob of the same bytes is stored", async () => {
    const t = await teamTokens("art-textcap");
    const run = await startRun(t.worker);
    const bound = await token("art-textcap", undefined, { sub: "agent", runId: run.run_id });
    const text = "2026-11-27T10:00:00Z step ok\n".repeat(Math.ceil((TEXT_ARTIFACT_MAX_BYTES + 1) / 29));
    const bytes = new TextEncoder().encode(text).slice(0, TEXT_ARTIFACT_MAX_BYTES + 1);
    const req = await uploadRequest({ tok: bound, runId: run.run_id, bytes, kind: "log" });
    // chunked: no Content-Length to refuse up front, the stream is cut at the cap
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    const chunked = new Request(req.url, {
      method: "POST",
      headers,
      body: new Blob([bytes]).stream(),
      duplex: "half",
    } as RequestInit);
    const log = await fetch(chunked);
    expect(log.status).toBe(413);
    expect(log.json.error.message).toMatch(/scanned for secrets/);
    expect(await stored("art-textcap")).toEqual({ objects: 0, rows: 0 });
    const blob = await upload({ tok: bound, runId: run.run_id, bytes, kind: "blob" });
    expect(blob.status, blob.text).toBe(201);
  });

  it("refuses a hash that does not match (422) and stores nothing", async () => {
    const t = await teamTokens("art-hash");
    const l = await leasedOrder(t.worker);
    const r = await upload({
      tok: t.worker,
      runId: l.runId,
      bytes: "hello",
      lease: l,
      headers: { "x-sha256": "a".repeat(64) },
    });
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "rejected", details: { rule_ids: ["artifact.sha256_mismatch"] } });
    expect(await stored("art-hash")).toEqual({ objects: 0, rows: 0 });
  });

  it("refuses a kind outside log|json|blob|trace and a malformed hash (400), nothing stored", async () => {
    const t = await teamTokens("art-kind");
    const l = await leasedOrder(t.worker);
    const kind = await upload({ tok: t.worker, runId: l.runId, bytes: "x", lease: l, kind: "video" });
    expect(kind.status).toBe(400);
    expect(kind.json.error.details.issues[0].path).toBe("x-artifact-kind");
    const hash = await upload({ tok: t.worker, runId: l.runId, bytes: "x", lease: l, headers: { "x-sha256": "nope" } });
    expect(hash.status).toBe(400);
    expect(await stored("art-kind")).toEqual({ objects: 0, rows: 0 });
  });

  it("answers 404 for another team's run and 409 to a caller that does not hold the order's lease", async () => {
    const t = await teamTokens("art-own");
    const l = await leasedOrder(t.worker);
    const other = await teamTokens("art-own-other");
    expect((await upload({ tok: other.worker, runId: l.runId, bytes: "x", lease: l })).status).toBe(404);
    const stale = { ...l, lease: { ...l.lease, lease_id: "lease_not_mine" } };
    const wrong = await upload({ tok: t.worker, runId: l.runId, bytes: "x", lease: stale });
    expect(wrong.status).toBe(409);
    const wrongEpoch = { ...l, lease: { ...l.lease, epoch: l.lease.epoch + 1 } };
    expect((await upload({ tok: t.worker, runId: l.runId, bytes: "x", lease: wrongEpoch })).status).toBe(409);
    // neither a lease nor a token bound to the run
    expect((await upload({ tok: t.worker, runId: l.runId, bytes: "x" })).status).toBe(409);
    const elsewhere = await token("art-own", undefined, { sub: "agent", runId: "run_other" });
    expect((await upload({ tok: elsewhere, runId: l.runId, bytes: "x" })).status).toBe(403);
    expect(
      (await upload({ tok: await token("art-own", ["runs:read"]), runId: l.runId, bytes: "x", lease: l })).status,
    ).toBe(403);
    expect(await stored("art-own")).toEqual({ objects: 0, rows: 0 });
  });

  it("refuses a secret inside a log (422 redaction_required, rule ids only) and stores nothing", async () => {
    const t = await teamTokens("art-secret");
    const l = await leasedOrder(t.worker);
    const secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    const r = await upload({ tok: t.worker, runId: l.runId, bytes: `charging with key ${secret}\nok\n`, lease: l });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe("redaction_required");
    expect(r.text).not.toContain(secret);
    expect(await stored("art-secret")).toEqual({ objects: 0, rows: 0 });
  });

  it("finds a secret past the guard's chunk size in a long log (overlapping chunks)", async () => {
    const t = await teamTokens("art-long");
    const l = await leasedOrder(t.worker);
    const filler = "2026-11-27T10:00:00Z step ok, nothing to see here\n".repeat(6000); // ~300 KiB
    const r = await upload({
      tok: t.worker,
      runId: l.runId,
      bytes: `${filler}key sk_live_4eC39HqLyjWDarjtT1zdp7dc\n`,
      lease: l,
    });
    expect(r.status).toBe(422);
    expect(await stored("art-long")).toEqual({ objects: 0, rows: 0 });
  });

  it("refuses non-UTF-8 bytes as a text kind (422), nothing stored", async () => {
    const t = await teamTokens("art-utf8");
    const l = await leasedOrder(t.worker);
    const r = await upload({
      tok: t.worker,
      runId: l.runId,
      bytes: new Uint8Array([0xff, 0xfe, 0x00, 0xc3]),
      lease: l,
      kind: "json",
    });
    expect(r.status).toBe(422);
    expect(r.json.error.details.rule_ids).toEqual(["artifact.not_utf8"]);
    expect(await stored("art-utf8")).toEqual({ objects: 0, rows: 0 });
  });

  it("holds an artifact with personal data behind the run's hard pii_detected gate until a human approves it", async () => {
    const t = await teamTokens("art-pii");
    const l = await leasedOrder(t.worker);
    const text = "customer jane.doe@example.com could not log in\n";
    const up = await upload({ tok: t.worker, runId: l.runId, bytes: text, lease: l });
    expect(up.status, up.text).toBe(201);
    expect(up.json.status).toBe("held");
    const gateId = up.json.gate_id as string;
    const gate = await call("GET", `/v1/runs/${l.runId}/gates/${gateId}`, { token: t.worker });
    expect(gate.json).toMatchObject({ kind: "hard", status: "pending" });
    const held = await call("GET", `/v1/artifacts/${up.json.artifact_id}`, { token: t.worker });
    expect(held.status).toBe(409);
    expect(held.text).not.toContain("jane.doe");
    await drainAll();
    const decided = await call("POST", `/v1/gates/${gateId}/decision`, {
      token: t.approver,
      body: { decision: "approve_retry", note: "test account, fine to keep" },
    });
    expect(decided.status, decided.text).toBe(200);
    const open = await call("GET", `/v1/artifacts/${up.json.artifact_id}`, { token: t.worker });
    expect(open.status).toBe(200);
    expect(open.text).toBe(text);
  });

  it("withholds a held artifact for good once its gate is denied (403)", async () => {
    const t = await teamTokens("art-pii-deny");
    const l = await leasedOrder(t.worker);
    const up = await upload({ tok: t.worker, runId: l.runId, bytes: "ssn 123-45-6789 in the form\n", lease: l });
    expect(up.json.status).toBe("held");
    await drainAll();
    const decided = await call("POST", `/v1/gates/${up.json.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "deny", note: "real customer data" },
    });
    expect(decided.status, decided.text).toBe(200);
    const r = await call("GET", `/v1/artifacts/${up.json.artifact_id}`, { token: t.worker });
    expect(r.status).toBe(403);
    expect(r.text).not.toContain("123-45-6789");
  });
});

describe("a completion citing artifacts", () => {
  it("records the run's artifact ids on the step and refuses another run's or an unknown id (422), changing nothing", async () => {
    const t = await teamTokens("art-cite");
    const l = await leasedOrder(t.worker);
    const mine = await upload({ tok: t.worker, runId: l.runId, bytes: "evidence\n", lease: l });
    const other = await leasedOrder(t.worker, "o2");
    const theirs = await upload({ tok: t.worker, runId: other.runId, bytes: "elsewhere\n", lease: other });
    const body = { lease_id: l.lease.lease_id, epoch: l.lease.epoch, op_id: "op-cite", outcome: "PASS" };
    const path = `/v1/runs/${l.runId}/orders/${l.orderId}/complete`;
    for (const ids of [[theirs.json.artifact_id], ["art_unknown"], [mine.json.artifact_id, theirs.json.artifact_id]]) {
      const refused = await call("POST", path, { token: t.worker, body: { ...body, artifacts: ids } });
      expect(refused.status).toBe(422);
      expect(refused.json.error.details.rule_ids).toEqual(["artifact.not_of_run"]);
    }
    const view = await call("GET", `/v1/runs/${l.runId}`, { token: t.worker });
    expect(view.json.steps).toEqual([]);
    const done = await call("POST", path, { token: t.worker, body: { ...body, artifacts: [mine.json.artifact_id] } });
    expect(done.status, done.text).toBe(200);
    const after = await call("GET", `/v1/runs/${l.runId}`, { token: t.worker });
    expect(after.json.steps[0]).toMatchObject({ op_id: "op-cite", artifacts: [mine.json.artifact_id] });
  });
});

describe("the Run Trace page", () => {
  it("links each step's cited artifacts with the page's own view token, and the link opens the bytes", async () => {
    const t = await teamTokens("art-trace");
    const l = await leasedOrder(t.worker);
    const up = await upload({ tok: t.worker, runId: l.runId, bytes: "trace evidence\n", lease: l });
    const id = up.json.artifact_id as string;
    const done = await call("POST", `/v1/runs/${l.runId}/orders/${l.orderId}/complete`, {
      token: t.worker,
      body: { lease_id: l.lease.lease_id, epoch: l.lease.epoch, op_id: "op-trace", outcome: "PASS", artifacts: [id] },
    });
    expect(done.status).toBe(200);
    const view = await call("POST", "/v1/views", { token: t.worker, body: { kind: "run", run_id: l.runId } });
    const pageUrl = new URL(view.json.url);
    const page = await fetch(new Request(`https://warden.test${pageUrl.pathname}${pageUrl.search}`));
    expect(page.status).toBe(200);
    const href = new RegExp(`href="(/artifacts/${id}\\?view=[^"]+)"`).exec(page.text)?.[1];
    expect(href).toBeDefined();
    const opened = await fetch(new Request(`https://warden.test${(href as string).replaceAll("&amp;", "&")}`));
    expect(opened.status).toBe(200);
    expect(opened.text).toBe("trace evidence\n");
  });
});

describe("artifact size limits", () => {
  const limitedApp = (maxBytes: number, teamQuotaBytes: number) => {
    const deps = h.depsWith({ artifactLimits: { maxBytes, teamQuotaBytes } });
    return (req: Request) => fetch(req, deps);
  };

  it("refuses a declared Content-Length over the limit, and a body that streams past it without one (413)", async () => {
    const send = limitedApp(1024, 1_000_000);
    const t = await teamTokens("art-size");
    const l = await leasedOrder(t.worker);
    const declared = await send(
      await uploadRequest({ tok: t.worker, runId: l.runId, bytes: "x".repeat(2000), lease: l }),
    );
    expect(declared.status).toBe(413);
    // chunked: no Content-Length, 4 chunks of 512 bytes
    const base = await uploadRequest({ tok: t.worker, runId: l.runId, bytes: "y".repeat(2048), lease: l });
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(encoder.encode("y".repeat(512)));
        controller.close();
      },
    });
    const headers = new Headers(base.headers);
    headers.delete("content-length");
    const streamed = await send(
      new Request(base.url, { method: "POST", headers, body: chunks, duplex: "half" } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(streamed.json.error.message).toMatch(/exceeds 1024 bytes/);
    // exactly at the limit is fine
    const at = await send(await uploadRequest({ tok: t.worker, runId: l.runId, bytes: "z".repeat(1024), lease: l }));
    expect(at.status, at.text).toBe(201);
    expect(await stored("art-size")).toEqual({ objects: 1, rows: 1 });
  });

  it("refuses an upload that would pass the team's quota (413 naming it) and keeps what was stored before", async () => {
    const send = limitedApp(1000, 1500);
    const t = await teamTokens("art-quota");
    const l = await leasedOrder(t.worker);
    const first = await send(await uploadRequest({ tok: t.worker, runId: l.runId, bytes: "a".repeat(1000), lease: l }));
    expect(first.status).toBe(201);
    const second = await send(await uploadRequest({ tok: t.worker, runId: l.runId, bytes: "b".repeat(600), lease: l }));
    expect(second.status).toBe(413);
    expect(second.json.error.message).toMatch(/team artifact quota of 1500 bytes.*1000 stored, 600 sent/);
    expect(await stored("art-quota")).toEqual({ objects: 1, rows: 1 });
    // another team's quota is its own
    const o = await teamTokens("art-quota-2");
    const ol = await leasedOrder(o.worker);
    expect(
      (await send(await uploadRequest({ tok: o.worker, runId: ol.runId, bytes: "c".repeat(600), lease: ol }))).status,
    ).toBe(201);
  });
});

describe("signed artifact links (GET /artifacts/:id?view=)", () => {
  async function oneArtifact(teamId: string) {
    const t = await teamTokens(teamId);
    const l = await leasedOrder(t.worker);
    const up = await upload({ tok: t.worker, runId: l.runId, bytes: "trace line\n", lease: l, kind: "trace" });
    return { t, runId: l.runId, id: up.json.artifact_id as string };
  }
  const open = (path: string) => fetch(new Request(`https://warden.test${path}`));

  it("opens the one artifact with a link from POST /v1/artifacts/:id/link, and a run's view token opens the run's", async () => {
    const a = await oneArtifact("art-link");
    const link = await call("POST", `/v1/artifacts/${a.id}/link`, { token: a.t.worker });
    expect(link.status).toBe(201);
    const url = new URL(link.json.url);
    const r = await open(url.pathname + url.search);
    expect(r.status).toBe(200);
    expect(r.text).toBe("trace line\n");
    const runView = await mintViewToken(
      env.WARDEN_JWT_SECRET,
      { kind: "run", team_id: "art-link", run_id: a.runId },
      Date.now(),
    );
    expect((await open(`/artifacts/${a.id}?view=${runView.token}`)).status).toBe(200);
  });

  it("answers 401 and renders nothing for a tampered, expired, other-team or other-artifact token", async () => {
    const a = await oneArtifact("art-link-bad");
    const b = await oneArtifact("art-link-other");
    const { token: good } = await mintViewToken(
      env.WARDEN_JWT_SECRET,
      { kind: "artifact", team_id: "art-link-bad", run_id: a.runId, artifact_id: a.id },
      Date.now(),
    );
    const tampered = `${good.slice(0, -2)}${good.endsWith("A") ? "B" : "A"}A`;
    const expired = await mintViewToken(
      env.WARDEN_JWT_SECRET,
      { kind: "artifact", team_id: "art-link-bad", run_id: a.runId, artifact_id: a.id },
      Date.now() - 16 * 60_000,
    );
    const otherTeam = await mintViewToken(
      env.WARDEN_JWT_SECRET,
      { kind: "run", team_id: "art-link-other", run_id: b.runId },
      Date.now(),
    );
    const team = await mintViewToken(env.WARDEN_JWT_SECRET, { kind: "team", team_id: "art-link-bad" }, Date.now());
    for (const [path, why] of [
      [`/artifacts/${a.id}?view=${tampered}`, "tampered"],
      [`/artifacts/${a.id}?view=${expired.token}`, "expired"],
      [`/artifacts/${a.id}?view=${otherTeam.token}`, "other team"],
      [`/artifacts/${b.id}?view=${good}`, "other artifact"],
      [`/artifacts/${a.id}?view=${team.token}`, "team overview token"],
      [`/artifacts/${a.id}`, "no token"],
    ]) {
      const r = await open(path as string);
      expect(r.status, why).toBe(401);
      expect(r.text, why).not.toContain("trace line");
    }
  });
});
