// Minting refuses what verification would refuse, naming the bad value; `npm run token` (scripts/token.mjs) agrees.
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import * as cli from "../../scripts/token.mjs";
import { mintToken } from "./mint";
import { createTokenVerifier, type Scope } from "./tokens";

const secret = "unit-secret-0123456789abcdef0123456789abcdef";

describe("mintToken", () => {
  it("refuses an unknown scope, naming it", async () => {
    await expect(mintToken({ secret, teamId: "t1", scopes: ["runs:wirte" as Scope] })).rejects.toThrow(
      /unknown scope "runs:wirte"/,
    );
  });

  it("refuses a team id that is not a namespace segment, naming it", async () => {
    await expect(mintToken({ secret, teamId: "acme corp", scopes: [] })).rejects.toThrow(/team_id "acme corp"/);
    await expect(mintToken({ secret, teamId: "a/b", scopes: [] })).rejects.toThrow(/a\/b/);
  });

  it("refuses a lifetime above the 900 s cap instead of cutting it", async () => {
    await expect(mintToken({ secret, teamId: "t1", scopes: [], lifetimeSeconds: 901 })).rejects.toThrow(/900/);
    await expect(mintToken({ secret, teamId: "t1", scopes: [], lifetimeSeconds: 0 })).rejects.toThrow(/ttl 0/);
    expect(await mintToken({ secret, teamId: "t1", scopes: [], lifetimeSeconds: 900 })).toMatch(/^ey/);
  });
});

describe("token verification messages", () => {
  it("names the unknown scope of a token minted elsewhere", async () => {
    const { SignJWT } = await import("jose");
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ team_id: "t1", scopes: ["runs:read", "runs:wirte"] })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("warden")
      .setAudience("warden")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(secret));
    const r = await createTokenVerifier(secret)(forged, Date.now());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain('"runs:wirte"');
  });
});

describe("npm run token (scripts/token.mjs)", () => {
  it("refuses bad values with a message naming them", () => {
    expect(cli.claimsFor({ team: "acme corp" }).error).toContain('"acme corp"');
    expect(cli.claimsFor({ team: "acme", scopes: "runs:read,runs:wirte" }).error).toContain('"runs:wirte"');
    expect(cli.claimsFor({ team: "acme", ttl: "3600" }).error).toContain("--ttl 3600");
    expect(cli.claimsFor({}).error).toContain("usage");
  });

  it("mints a token the verifier accepts", async () => {
    const t = await cli.mint(secret, { team: "acme", scopes: "runs:read", sub: "alice", ttl: "60" });
    const r = await createTokenVerifier(secret)(t, Date.now());
    expect(r.ok && r.value).toMatchObject({ teamId: "acme", subject: "alice" });
  });
});
