// The security matrix's HTTP rows, in Node over the stand-ins (matrix.app.unit.test.ts): tokens, scopes, cross-team
// access, wire bodies and prototype ids, over every capability-token route of /openapi.json.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mintToken } from "../../src/auth/mint";
import type { MatrixHelpers } from "./matrix-helpers";
import { concrete as fill, isEnvelope, type Route, routesOf } from "./routes";
import { check, tally } from "./table";

/** Registers the token, scope, tenancy, wire-body and prototype-id rows over `h`. */
export function describeHttpRows(h: MatrixHelpers): void {
  const { addOrder, call, lease, raw, startRun, token } = h;

  let routes: Route[] = [];
  let tok: string;
  let runId: string;

  const b64url = (s: string | Uint8Array) =>
    btoa(typeof s === "string" ? s : String.fromCharCode(...s))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");

  /** An HS256 (or any-alg-named) token with exactly the header and claims given, signed with `secret`. */
  async function craft(header: Record<string, unknown>, claims: Record<string, unknown>, secret = h.secret) {
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    if (header.alg === "none") return `${input}.`;
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input)));
    return `${input}.${b64url(sig)}`;
  }

  const nowS = () => Math.floor(Date.now() / 1000);
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: "warden",
    aud: "warden",
    iat: nowS(),
    exp: nowS() + 600,
    team_id: "team-a",
    scopes: ["runs:read"],
    sub: "user-a",
    ...extra,
  });

  /** A concrete path for a route, its parameters filled with this file's run and order. */
  const concrete = (path: string, ids: { run?: string; order?: string; gate?: string } = {}) =>
    fill(path, { ...ids, run: ids.run ?? runId });

  beforeAll(async () => {
    tok = await token("team-a");
    const run = await startRun(tok);
    runId = run.run_id;
    await addOrder(tok, runId, "o1");
    routes = routesOf((await call("GET", "/openapi.json")).json);
  });

  // a fresh token for every test: the fuzz alone outlasts a token's lifetime on a loaded machine
  beforeEach(async () => {
    tok = await token("team-a");
  });

  describe("tokens", () => {
    it("refuses every hostile token variant with 401 and accepts the 29 s skew", async () => {
      // each token is made just before it is sent: a slow machine must not push "29 s ago" past the 30 s tolerance
      const variants: [string, (t: number) => Promise<string>, number][] = [
        ["alg none", () => craft({ alg: "none", typ: "JWT" }, claims()), 401],
        ["alg HS512", () => craft({ alg: "HS512", typ: "JWT" }, claims()), 401],
        ["alg RS256 (HS/RS confusion)", () => craft({ alg: "RS256", typ: "JWT" }, claims()), 401],
        ["wrong secret", () => craft({ alg: "HS256" }, claims(), "not-the-secret-0123456789abcdef0123"), 401],
        ["missing aud", () => craft({ alg: "HS256" }, claims({ aud: undefined })), 401],
        ["foreign aud", () => craft({ alg: "HS256" }, claims({ aud: "someone-else" })), 401],
        ["wrong iss", () => craft({ alg: "HS256" }, claims({ iss: "mallory" })), 401],
        ["missing exp", () => craft({ alg: "HS256" }, claims({ exp: undefined })), 401],
        ["missing iat", () => craft({ alg: "HS256" }, claims({ iat: undefined })), 401],
        ["expired 31 s ago", (t) => craft({ alg: "HS256" }, claims({ iat: t - 331, exp: t - 31 })), 401],
        ["expired 29 s ago (tolerance)", (t) => craft({ alg: "HS256" }, claims({ iat: t - 329, exp: t - 29 })), 200],
        ["iat 31 s ahead", (t) => craft({ alg: "HS256" }, claims({ iat: t + 31, exp: t + 331 })), 401],
        ["iat 29 s ahead (tolerance)", (t) => craft({ alg: "HS256" }, claims({ iat: t + 29, exp: t + 329 })), 200],
        ["nbf 120 s ahead", (t) => craft({ alg: "HS256" }, claims({ nbf: t + 120 })), 401],
        ["nbf 31 s ahead", (t) => craft({ alg: "HS256" }, claims({ nbf: t + 31 })), 401],
        ["nbf 29 s ahead (tolerance)", (t) => craft({ alg: "HS256" }, claims({ nbf: t + 29 })), 200],
        ["lifetime 901 s", (t) => craft({ alg: "HS256" }, claims({ iat: t, exp: t + 901 })), 401],
        ["lifetime 900 s", (t) => craft({ alg: "HS256" }, claims({ iat: t, exp: t + 900 })), 200],
        ["aud list without warden", () => craft({ alg: "HS256" }, claims({ aud: ["someone-else"] })), 401],
        ["empty signature", async () => (await craft({ alg: "HS256" }, claims())).replace(/\.[^.]*$/, "."), 401],
        ["missing team_id", () => craft({ alg: "HS256" }, claims({ team_id: undefined })), 401],
        ["scopes not an array", () => craft({ alg: "HS256" }, claims({ scopes: "runs:read" })), 401],
        ["jku header", () => craft({ alg: "HS256", jku: "https://evil.test/jwks" }, claims()), 200],
        ["x5u header", () => craft({ alg: "HS256", x5u: "https://evil.test/cert" }, claims()), 200],
        // a kid names one of the configured secrets (rotation); any other kid is refused, never looked up
        ["kid header", () => craft({ alg: "HS256", kid: "../../etc/passwd" }, claims()), 401],
      ];
      let fetched = 0;
      const realFetch = globalThis.fetch;
      globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
        fetched++;
        return realFetch(...args);
      }) as typeof fetch;
      try {
        for (const [name, make, want] of variants) {
          // the 29/31 s edges hold to the second: an answer that came in a later second than the token was made (a
          // loaded machine) says nothing about them, so that try is made again (at most five times)
          let res: Awaited<ReturnType<typeof raw>>;
          let made: number;
          let tries = 0;
          do {
            made = nowS();
            const jwt = await make(made);
            res = await raw("GET", `/v1/runs/${runId}`, { headers: { authorization: `Bearer ${jwt}` } });
          } while (nowS() !== made && res.status !== want && ++tries < 5);
          expect(check("tokens", res.status === want && (want === 200 || isEnvelope(res.json))), name).toBe(true);
        }
        const inQuery = await raw("GET", `/v1/runs/${runId}?access_token=${tok}&token=${tok}`);
        expect(check("tokens", inQuery.status === 401), "token in the query string").toBe(true);
      } finally {
        globalThis.fetch = realFetch;
      }
      expect(check("tokens", fetched === 0), "kid/jku/x5u never fetched").toBe(true);
    });
  });

  describe("scopes and tenancy", () => {
    it("answers 403 on every route to a token without its scope, and never 2xx", async () => {
      const none = await mintToken({ secret: h.secret, teamId: "team-a", scopes: [], sub: "nobody" });
      for (const r of routes) {
        const res = await call(r.method, concrete(r.path), { token: none, ...(r.body ? { body: {} } : {}) });
        expect(
          check("scopes", res.status === 403 && isEnvelope(res.json)),
          `${r.method} ${r.path} → ${res.status}`,
        ).toBe(true);
      }
    });

    it("never reaches another team's run, order or gate on any object-taking route", async () => {
      const foreign = await token("team-b");
      for (const r of routes.filter((x) => x.path.includes("{run_id}"))) {
        const res = await call(r.method, concrete(r.path), { token: foreign, ...(r.body ? { body: {} } : {}) });
        const ok = (res.status === 403 || res.status === 404 || res.status === 400) && !res.text.includes('o1"');
        tally("cross-team", { tried: 1, passed: ok ? 1 : 0, leaked: res.status < 300 ? 1 : 0 });
        expect(ok, `${r.method} ${r.path} → ${res.status}`).toBe(true);
      }
    });

    it("keeps a run-bound token of the same team inside its run", async () => {
      const bound = await token("team-a", undefined, { runId: "run_other" });
      for (const r of routes.filter((x) => x.path.includes("{run_id}"))) {
        const res = await call(r.method, concrete(r.path), { token: bound, ...(r.body ? { body: {} } : {}) });
        const ok = res.status === 403 || res.status === 404 || res.status === 400;
        tally("same-team run binding", { tried: 1, passed: ok ? 1 : 0, leaked: res.status < 300 ? 1 : 0 });
        expect(ok, `${r.method} ${r.path} → ${res.status}`).toBe(true);
      }
    });
  });

  describe("wire", () => {
    it("answers every JSON route's empty, blank, parameterised-type and 2,500-deep bodies with a 4xx envelope", async () => {
      const deep = `${"[".repeat(2500)}${"]".repeat(2500)}`;
      const deepObj = `{"order_id":"x","input_json":${'{"a":'.repeat(2500)}1${"}".repeat(2500)}}`;
      for (const r of routes.filter((x) => x.body)) {
        const cases: [string, string, string, (s: number) => boolean][] = [
          ["empty", "application/json", "", (s) => s < 500],
          ["blank", "application/json", "  \n\t ", (s) => s < 500],
          ["type with spaced parameter", "application/json ; x=y", "{}", (s) => s === 415],
          ["text/plain", "text/plain", "{}", (s) => s === 415],
          ["deep array", "application/json", deep, (s) => s === 400],
          ["deep object", "application/json", deepObj, (s) => s === 400],
          ["65 levels", "application/json", `${"[".repeat(65)}${"]".repeat(65)}`, (s) => s === 400],
        ];
        for (const [name, type, body, want] of cases) {
          const res = await raw(r.method, concrete(r.path), {
            headers: { authorization: `Bearer ${tok}`, "content-type": type },
            body,
          });
          const ok = want(res.status) && (res.status < 400 || isEnvelope(res.json));
          expect(check("wire: bodies", ok), `${r.method} ${r.path} ${name} → ${res.status} ${res.text}`).toBe(true);
        }
      }
    });
  });

  describe("ids named like Object.prototype members", () => {
    it("answers 404 for unknown gates and orders named __proto__, constructor, toString and serves them once created", async () => {
      const own = (await startRun(tok)).run_id; // the wire and fuzz rows may stop the shared run
      for (const id of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
        const gate = await call("GET", `/v1/runs/${own}/gates/${id}`, { token: tok });
        expect(check("prototype ids", gate.status === 404 && isEnvelope(gate.json)), `gate ${id}`).toBe(true);
        const missing = await lease(tok, own, id);
        expect(check("prototype ids", missing.status === 404), `lease ${id} → ${missing.status}`).toBe(true);
        await addOrder(tok, own, id);
        const leased = await lease(tok, own, id);
        expect(check("prototype ids", leased.status === 200), `lease ${id} → ${leased.status} ${leased.text}`).toBe(
          true,
        );
        const view = await call("GET", `/v1/runs/${own}`, { token: tok });
        const order = (view.json.orders ?? []).find((o: any) => o.order_id === id);
        expect(check("prototype ids", order?.status === "LEASED"), `view ${id}`).toBe(true);
      }
    });
  });
}
