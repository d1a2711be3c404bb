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
