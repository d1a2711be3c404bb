// External identity provider: RS256/ES256 tokens verified through a loopback JWKS server (jose remote key set).
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExternalVerifier, type IdpConfig } from "./external";
import { createTokenVerifier } from "./tokens";

const ISSUER = "https://idp.example.test/";
let server: Server;
let jwksUrl: string;
let fetches = 0;
let delayMs = 0;
const keys: Record<string, { privateKey: CryptoKey; jwk: JWK }> = {};

beforeAll(async () => {
  for (const [kid, alg] of [
    ["rsa1", "RS256"],
    ["ec1", "ES256"],
    ["ps1", "PS256"],
  ] as const) {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    keys[kid] = { privateKey: privateKey as CryptoKey, jwk: { ...(await exportJWK(publicKey)), kid, alg } };
  }
  server = createServer((_req, res) => {
    fetches++;
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: Object.values(keys).map((k) => k.jwk) }));
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  jwksUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (o: Partial<IdpConfig> = {}): IdpConfig => ({
  issuer: ISSUER,
  jwksUrl,
  audience: "warden",
  algorithms: ["RS256", "ES256"],
  teamClaim: "org",
  scopesClaim: "scope",
  timeoutMs: 5000,
  ...o,
});

async function idpToken(kid: string, claims: Record<string, unknown> = {}, o: { iss?: string; aud?: string } = {}) {
  const alg = keys[kid]?.jwk.alg as string;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ org: "team-idp", scope: "runs:read policy:decide openid", ...claims })
    .setProtectedHeader({ alg, kid })
    .setIssuer(o.iss ?? ISSUER)
    .setAudience(o.aud ?? "warden")
    .setSubject("alice@example.test")
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(keys[kid]?.privateKey as CryptoKey);
}

describe("external identity provider (JWKS)", () => {
  it("maps an RS256 or ES256 token's claims to team, scopes (Warden names only) and subject", async () => {
    const verify = createExternalVerifier(config());
    for (const kid of ["rsa1", "ec1"]) {
      const r = await verify(await idpToken(kid), Date.now());
      expect(r.ok && { team: r.value.teamId, sub: r.value.subject, scopes: [...r.value.scopes] }).toEqual({
        team: "team-idp",
        sub: "alice@example.test",
        scopes: ["runs:read", "policy:decide"],
      });
    }
    const arr = await verify(await idpToken("rsa1", { scope: ["runs:write", "admin"] }), Date.now());
    expect(arr.ok && [...arr.value.scopes]).toEqual(["runs:write"]);
  });

  it("caches the key set: many verifications, one fetch", async () => {
    const verify = createExternalVerifier(config());
    const before = fetches;
    for (let i = 0; i < 5; i++) expect((await verify(await idpToken("rsa1"), Date.now())).ok).toBe(true);
    expect(fetches - before).toBe(1);
  });

  it("pins issuer, audience and algorithms; needs the team claim", async () => {
    const verify = createExternalVerifier(config());
    expect((await verify(await idpToken("rsa1", {}, { iss: "https://evil.test/" }), Date.now())).ok).toBe(false);
    expect((await verify(await idpToken("rsa1", {}, { aud: "other" }), Date.now())).ok).toBe(false);
    expect((await verify(await idpToken("ps1"), Date.now())).ok).toBe(false);
    const es256Only = createExternalVerifier(config({ algorithms: ["ES256"] }));
    expect((await es256Only(await idpToken("rsa1"), Date.now())).ok).toBe(false);
    const noTeam = await verify(await idpToken("rsa1", { org: undefined }), Date.now());
    expect(noTeam).toEqual({ ok: false, error: 'token lacks the team claim "org"' });
  });

  it("gives up on a slow JWKS endpoint after its timeout", async () => {
    delayMs = 1000;
    try {
      const verify = createExternalVerifier(config({ timeoutMs: 100 }));
      const started = Date.now();
      const r = await verify(await idpToken("rsa1"), Date.now());
      expect(r).toEqual({ ok: false, error: "identity provider keys unavailable (timeout)" });
      expect(Date.now() - started).toBeLessThan(800);
    } finally {
      delayMs = 0;
    }
  });

  it("is reached through the capability-token verifier for RS256/ES256 only; HS256 stays on the Warden secrets", async () => {
    const verify = createTokenVerifier("warden-secret-0123456789abcdef0123456789", {
      external: createExternalVerifier(config()),
    });
    expect((await verify(await idpToken("ec1"), Date.now())).ok).toBe(true);
    // an HS256 token "signed" with the IdP's public key material never reaches the JWKS path
    const confused = await new SignJWT({ team_id: "t", scopes: [] })
      .setProtectedHeader({ alg: "HS256", kid: "rsa1" })
      .setIssuer(ISSUER)
      .setAudience("warden")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(JSON.stringify(keys.rsa1?.jwk)));
    expect((await verify(confused, Date.now())).ok).toBe(false);
  });
});
