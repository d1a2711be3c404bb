// Tokens from an API key, refreshed before expiry (clock passed in), against a real loopback HTTP server for /v1/tokens.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyApi, createTokenSession, memoryCache, REFRESH_BEFORE_MS, unwrap, WardenError } from "./index.ts";

const KEY = "wdn_live_key";
let now = 1_700_000_000_000;
let exchanges: { scopes?: string[]; ttl_s?: number }[] = [];
let seenBearers: string[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const auth = req.headers.authorization ?? "";
      res.setHeader("content-type", "application/json");
      if (req.url === "/v1/tokens" && req.method === "POST") {
        if (auth !== `Bearer ${KEY}`) {
          res.statusCode = 401;
          return res.end(JSON.stringify({ error: { code: "unauthorized", message: "API key revoked" } }));
        }
        const b = JSON.parse(body || "{}");
        exchanges.push(b);
        const ttl = b.ttl_s ?? 900;
        return res.end(
          JSON.stringify({
            token: `tok${exchanges.length}`,
            expires_at: new Date(now + ttl * 1000).toISOString(),
            key_expires_at: null,
          }),
        );
      }
      seenBearers.push(auth);
      res.end(JSON.stringify({ keys: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function reset() {
  exchanges = [];
  seenBearers = [];
}

describe("createTokenSession", () => {
  it("exchanges once, serves the cached token, and exchanges again when less than the margin is left", async () => {
    reset();
    const s = createTokenSession({ baseUrl, key: KEY, now: () => now });
    expect(await s.token()).toBe("tok1");
    now += 900_000 - REFRESH_BEFORE_MS - 1;
    expect(await s.token()).toBe("tok1");
    expect(exchanges).toHaveLength(1);
    now += 1;
    expect(await s.token()).toBe("tok2");
    expect(exchanges).toHaveLength(2);
  });

  it("sends the asked scopes and lifetime; parallel callers share one exchange", async () => {
    reset();
    const s = createTokenSession({ baseUrl, key: KEY, scopes: ["runs:read"], ttlS: 300, now: () => now });
    const got = await Promise.all([s.token(), s.token(), s.token()]);
    expect(new Set(got)).toEqual(new Set(["tok1"]));
    expect(exchanges).toEqual([{ scopes: ["runs:read"], ttl_s: 300 }]);
  });

  it("starts from a fresh cached token without a call, and saves what it exchanges", async () => {
    reset();
    const cache = memoryCache();
    await cache.save({ token: "saved", expires_at: new Date(now + 10 * 60_000).toISOString() });
    const s = createTokenSession({ baseUrl, key: KEY, cache, now: () => now });
    expect(await s.token()).toBe("saved");
    expect(exchanges).toHaveLength(0);
    await cache.save({ token: "stale", expires_at: new Date(now + REFRESH_BEFORE_MS).toISOString() });
    const s2 = createTokenSession({ baseUrl, key: KEY, cache, now: () => now });
    expect(await s2.token()).toBe("tok1");
    expect((await cache.load())?.token).toBe("tok1");
  });

  it("answers the server's refusal as a WardenError (401)", async () => {
    const s = createTokenSession({ baseUrl, key: "wdn_live_other", now: () => now });
    const e = await s.token().catch((x) => x);
    expect(e).toBeInstanceOf(WardenError);
    expect(e).toMatchObject({ status: 401, code: "unauthorized", message: "API key revoked" });
  });
});

describe("createKeyApi", () => {
  it("puts a refreshed token on every request", async () => {
    reset();
    const { api } = createKeyApi({ baseUrl, key: KEY, now: () => now });
    await unwrap(api.v1.keys.$get());
    await unwrap(api.v1.keys.$get());
    now += 900_000;
    await unwrap(api.v1.keys.$get());
    expect(seenBearers).toEqual(["Bearer tok1", "Bearer tok1", "Bearer tok2"]);
  });
});
