// The README's commands, run as a user would: `npm start -- --port N` serves the API; `npm run token` mints a usable token.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";

const root = join(import.meta.dirname, "..");
const tokenScript = join(root, "scripts/token.mjs");

describe("npm run token", () => {
  it("creates .dev.vars when missing and mints a token that verifies with its secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "warden-token-"));
    try {
      const out = execFileSync(
        process.execPath,
        [tokenScript, "--team", "t-cli", "--scopes", "policy:decide,runs:read", "--sub", "ops"],
        { cwd: dir, encoding: "utf8" },
      ).trim();
      const token = out.split("\n").at(-1) as string;
      const secret = /WARDEN_JWT_SECRET=(\w+)/.exec(readFileSync(join(dir, ".dev.vars"), "utf8"))?.[1] as string;
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
        issuer: "warden",
        audience: "warden",
      });
      expect(payload).toMatchObject({ team_id: "t-cli", scopes: ["policy:decide", "runs:read"], sub: "ops" });
      expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(900);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to run without --team", () => {
    expect(() => execFileSync(process.execPath, [tokenScript], { cwd: root, stdio: "pipe" })).toThrow();
  });
});

describe("npm start", () => {
  // the node-server project's shared server is `npm start` on a fresh --persist-to dir (test/node-server/): what this
  // test checks is what that command serves; team t-start is this file's alone, so its decision log starts empty
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);

  it("serves the API with migrated D1 and the secrets from .dev.vars", async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ ok: true });
    const token = execFileSync(process.execPath, [tokenScript, "--team", "t-start", "--scopes", "policy:admin"], {
      cwd: root,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1);
    const doc = await (await fetch(`${url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    // replay reads the decision log table, so a 200 proves the D1 migrations ran.
    const res = await fetch(`${url}/v1/policy/replay`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        profile: JSON.parse(readFileSync(join(root, "contracts/memrl-policy.profile.example.json"), "utf8")),
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ total: 0, changed: 0 });
  });
});
