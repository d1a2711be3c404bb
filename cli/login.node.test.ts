// `warden login --key` as a real process against the node-server project's shared local server: the 0600 credentials
// file, later commands on the saved token, refresh before expiry, a revoked key, and a mistyped key refused offline.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { createApi, mintToken, unwrap } from "../src/client/index.ts";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";
import { runWarden } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
// commands run where no .dev.vars exists, so a success can only come from the saved login
const cwd = mkdtempSync(join(tmpdir(), "warden-login-cwd-"));
const config = mkdtempSync(join(tmpdir(), "warden-login-xdg-"));
const credentials = join(config, "warden", "credentials.json");

const warden = (args: string[], env: Record<string, string> = {}) =>
  runWarden(args, { XDG_CONFIG_HOME: config, WARDEN_MEMORY: "0", ...env }, cwd);

const decideArgs = ["policy", "decide", "--memrl-mode", "enforce", "--failure-class", "vibe_fail", "--attempt", "1"];
const saved = () => JSON.parse(readFileSync(credentials, "utf8"));

describe("warden login (no server needed)", () => {
  it("refuses a mistyped key offline (exit 2) and writes nothing", async () => {
    const r = await warden(["login", "--key", `wdn_live_${"0".repeat(61)}`, "--url", "http://127.0.0.1:9"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toContain("checksum mismatch");
    expect(() => statSync(credentials)).toThrow();
  });
});

describe("warden login against the real local server (npm start)", () => {
  let url: string;
  let admin: ReturnType<typeof createApi>;

  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  beforeAll(async () => {
    url = sharedServerUrl();
    const { WARDEN_JWT_SECRET } = readDevVars(join(root, ".dev.vars")) as { WARDEN_JWT_SECRET: string };
    const token = await mintToken({
      secret: WARDEN_JWT_SECRET,
      teamId: "t-login",
      scopes: ["policy:admin", "policy:decide", "runs:read"],
      sub: "admin",
    });
    admin = createApi({ baseUrl: url, token });
  });

  afterAll(() => {
    for (const d of [cwd, config]) rmSync(d, { recursive: true, force: true });
  });

  const newKey = () =>
    unwrap(admin.v1.keys.$post({ json: { subject: "agent:login", scopes: ["policy:decide", "runs:read"] } }));

  it("logs in: saves key and token for the URL in a 0600 file; later commands use the saved token", async () => {
    const key = await newKey();
    const r = await warden(["login", "--key", key.key, "--url", url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ logged_in: true, url, credentials, key_expires_at: null });
    expect(r.stdout).not.toContain(key.key);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, "warden")).mode & 0o777).toBe(0o700);
    const login = saved()[url];
    expect(login.key).toBe(key.key);
    expect(decodeJwt(login.token)).toMatchObject({ team_id: "t-login", sub: "agent:login", key_id: key.id });
    expect(Date.parse(r.json.token_expires_at)).toBe(Date.parse(login.expires_at));

    const d = await warden(decideArgs, { WARDEN_URL: url });
    expect(d.code, d.stderr).toBe(0);
    expect(d.json.decision_id).toBeTypeOf("string");
    expect(saved()[url].token).toBe(login.token);
  });

  it("refreshes the token before it expires (less than a minute left) and after it has expired", async () => {
    const before = saved()[url];
    for (const left of [30_000, -5_000]) {
      writeFileSync(
        credentials,
        JSON.stringify({ [url]: { ...before, expires_at: new Date(Date.now() + left).toISOString() } }),
      );
      const d = await warden(decideArgs, { WARDEN_URL: url });
      expect(d.code, d.stderr).toBe(0);
      const after = saved()[url];
      expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.now() + 800_000);
      expect(after.key).toBe(before.key);
      expect(statSync(credentials).mode & 0o777).toBe(0o600);
    }
  });

  it("login --scopes/--ttl narrows the saved token; a revoked key needs a new login (exit 3)", async () => {
    const key = await newKey();
    const r = await warden(["login", "--key", key.key, "--url", url, "--scopes", "policy:decide", "--ttl", "120"]);
    expect(r.code, r.stderr).toBe(0);
    const claims = decodeJwt(saved()[url].token);
    expect(claims.scopes).toEqual(["policy:decide"]);
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
    // a 120 s token is always within a minute-and-a-bit: force the refresh and check the options were kept
    writeFileSync(credentials, JSON.stringify({ [url]: { ...saved()[url], expires_at: new Date().toISOString() } }));
    expect((await warden(decideArgs, { WARDEN_URL: url })).code).toBe(0);
    expect(decodeJwt(saved()[url].token).scopes).toEqual(["policy:decide"]);

    await unwrap(admin.v1.keys[":id"].$delete({ param: { id: key.id } }));
    writeFileSync(credentials, JSON.stringify({ [url]: { ...saved()[url], expires_at: new Date().toISOString() } }));
    const refused = await warden(decideArgs, { WARDEN_URL: url });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stderr).error.message).toMatch(/revoked.*warden login/);
  });

  it("logout forgets the login; commands then have no token (exit 3)", async () => {
    const out = await warden(["logout", "--url", url]);
    expect(out.json).toEqual({ logged_out: true });
    expect(() => statSync(credentials)).toThrow();
    expect((await warden(decideArgs, { WARDEN_URL: url })).code).toBe(3);
  });
});
