// The OAuth install state and authorize URL (pure): round trip, any change refused, expiry, the manifest's scopes.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SLACK_BOT_SCOPES } from "./oauth";
import { authorizeUrl, type InstallState, signState, verifyState } from "./oauth-state";

const SECRET = "state-secret-0123456789abcdef0123456789";
const id = fc.string({ minLength: 1, maxLength: 64 });
const stateArb = fc.record({
  team_id: id,
  subject: id,
  nonce: fc.stringMatching(/^[a-z0-9_]{1,40}$/),
  expires_at: fc.integer({ min: 1, max: 2 ** 45 }),
});

describe("install state", () => {
  it("verifies what it signed, before its expiry, with every field intact", async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, fc.integer({ min: 1, max: 2 ** 20 }), async (s: InstallState, early) => {
        const raw = await signState(SECRET, s);
        expect(await verifyState(SECRET, raw, s.expires_at - early)).toEqual({ ok: true, value: s });
      }),
      { numRuns: 50 },
    );
  });

  it("refuses it from its expiry on", async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, fc.integer({ min: 0, max: 2 ** 30 }), async (s, late) => {
        const r = await verifyState(SECRET, await signState(SECRET, s), s.expires_at + late);
        expect(r).toEqual({ ok: false, error: "state expired: start the install again" });
      }),
      { numRuns: 30 },
    );
  });

  it("refuses any one character changed, and a state signed with another secret", async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, fc.nat(), fc.constantFrom(..."AQgw-_x0."), async (s, at, ch) => {
        const raw = await signState(SECRET, s);
        const i = at % raw.length;
        fc.pre(raw[i] !== ch);
        const changed = raw.slice(0, i) + ch + raw.slice(i + 1);
        expect((await verifyState(SECRET, changed, s.expires_at - 1)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
    const s = { team_id: "t", subject: "a", nonce: "n", expires_at: 10 };
    expect(await verifyState(SECRET, await signState(`${SECRET}x`, s), 1)).toEqual({
      ok: false,
      error: "state signature does not verify",
    });
  });

  it("refuses empty, oversized and malformed text without throwing", async () => {
    for (const raw of ["", "x".repeat(1025), "a.b.c", "%%%.%%%", "abc"])
      expect((await verifyState(SECRET, raw, 0)).ok).toBe(false);
  });
});

describe("authorize URL", () => {
  it("carries client id, scopes, redirect and state URL-encoded on the configured base", () => {
    const url = new URL(
      authorizeUrl("https://slack.example/oauth/v2/authorize", {
        client_id: "12.34",
        scopes: ["chat:write", "commands"],
        redirect_uri: "https://w.example/slack/oauth/callback?x=1&y=2",
        state: "a.b",
      }),
    );
    expect(url.origin + url.pathname).toBe("https://slack.example/oauth/v2/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "12.34",
      scope: "chat:write,commands",
      redirect_uri: "https://w.example/slack/oauth/callback?x=1&y=2",
      state: "a.b",
    });
  });

  it("asks for exactly the bot scopes of slack/manifest.yaml", () => {
    const manifest = readFileSync(new URL("../../../slack/manifest.yaml", import.meta.url), "utf8");
    const bot = /\n {4}bot:\n((?: {6}(?:- .*|#.*)\n)+)/.exec(manifest)?.[1] ?? "";
    const scopes = [...bot.matchAll(/^ {6}- (\S+)/gm)].map((m) => m[1]);
    expect(scopes.sort()).toEqual([...SLACK_BOT_SCOPES].sort());
  });
});
