// createTokenVerifier: the principal from a valid token, and the refusals (pure; runs in the Node project).
import { describe, expect, it } from "vitest";
import { mintToken } from "./mint";
import { createTokenVerifier } from "./tokens";

const secret = "unit-secret-0123456789abcdef0123456789abcdef";

describe("createTokenVerifier", () => {
  it("returns the principal with the caller's identity and bindings", async () => {
    const verify = createTokenVerifier(secret);
    const t = await mintToken({
      secret,
      teamId: "t1",
      scopes: ["runs:read"],
      sub: "alice",
      runId: "r1",
      taskId: "k1",
      personaId: "p1",
    });
    const r = await verify(t, Date.now());
    expect(r.ok && r.value).toMatchObject({
      teamId: "t1",
      subject: "alice",
      runId: "r1",
      taskId: "k1",
      personaId: "p1",
    });
    expect(r.ok && [...r.value.scopes]).toEqual(["runs:read"]);
  });

  it("names the team as subject when the token has no sub", async () => {
    const verify = createTokenVerifier(secret);
    const r = await verify(await mintToken({ secret, teamId: "t1", scopes: [] }), Date.now());
    expect(r.ok && r.value.subject).toBe("team:t1");
  });

  it("stops accepting a cached token once it expires (plus tolerance)", async () => {
    const verify = createTokenVerifier(secret);
    const nowS = Math.floor(Date.now() / 1000);
    const t = await mintToken({ secret, teamId: "t1", scopes: [], nowSeconds: nowS, lifetimeSeconds: 60 });
    expect((await verify(t, nowS * 1000)).ok).toBe(true);
    expect((await verify(t, (nowS + 60 + 29) * 1000)).ok).toBe(true);
    const late = await verify(t, (nowS + 60 + 31) * 1000);
    expect(late).toEqual({ ok: false, error: "token expired" });
  });

  it("refuses a token issued in the future beyond the tolerance", async () => {
    const verify = createTokenVerifier(secret);
    const nowS = Math.floor(Date.now() / 1000);
    const t = await mintToken({ secret, teamId: "t1", scopes: [], nowSeconds: nowS + 120, lifetimeSeconds: 60 });
    expect((await verify(t, nowS * 1000)).ok).toBe(false);
  });
});

describe("key rotation (kid)", () => {
  const current = { kid: "k2", secret: "current-secret-0123456789abcdef0123456789" };
  const previous = { kid: "k1", secret: "previous-secret-0123456789abcdef012345678" };
  const verify = createTokenVerifier([current, previous]);
  const mint = (s: { kid: string; secret: string }, kid: string | null = s.kid) =>
    mintToken({ secret: s.secret, kid: kid ?? undefined, teamId: "t1", scopes: ["runs:read"] });

  it("accepts tokens of both active secrets, each selected by its kid", async () => {
    expect((await verify(await mint(current), Date.now())).ok).toBe(true);
    expect((await verify(await mint(previous), Date.now())).ok).toBe(true);
  });

  it("checks a token without kid against the current secret only", async () => {
    expect((await verify(await mint(current, null), Date.now())).ok).toBe(true);
    expect((await verify(await mint(previous, null), Date.now())).ok).toBe(false);
  });

  it("refuses an unknown kid, and a kid naming the other secret", async () => {
    expect(await verify(await mint(current, "k9"), Date.now())).toEqual({
      ok: false,
      error: "token names an unknown key id",
    });
    expect((await verify(await mint(previous, "k2"), Date.now())).ok).toBe(false);
  });

  it("once the previous secret is dropped, its tokens stop", async () => {
    const after = createTokenVerifier([current]);
    expect((await after(await mint(previous), Date.now())).ok).toBe(false);
  });

  it("refuses RS256/ES256 tokens when no identity provider is configured, and alg none always", async () => {
    const head = (h: object) => btoa(JSON.stringify(h)).replaceAll("=", "");
    const body = head({ team_id: "t1", scopes: [], iss: "warden", aud: "warden", iat: 1, exp: 2 });
    for (const alg of ["RS256", "ES256", "none"]) {
      expect((await verify(`${head({ alg })}.${body}.sig`, Date.now())).ok).toBe(false);
    }
  });
});
