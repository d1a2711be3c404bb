// Slack v0 signature verification: Slack's published example, tampering, wrong secret, missing headers, the window.
import { describe, expect, it } from "vitest";
import { slackSignature, timingSafeEqual, verifySlackRequest } from "./signature";

// https://api.slack.com/authentication/verifying-requests-from-slack (the documented example)
const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const TS = "1531420618";
const BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
const SIG = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
const NOW = Number(TS) * 1000;

const check = (over: Partial<Parameters<typeof verifySlackRequest>[0]> = {}) =>
  verifySlackRequest({ secrets: [SECRET], timestamp: TS, signature: SIG, body: BODY, nowMs: NOW, ...over });

describe("verifySlackRequest", () => {
  it("computes Slack's published example signature", async () => {
    expect(await slackSignature(SECRET, TS, BODY)).toBe(SIG);
    expect(await check()).toEqual({ ok: true });
  });

  it("refuses a body with one bit flipped", async () => {
    const flipped = String.fromCharCode(BODY.charCodeAt(10) ^ 1);
    expect(await check({ body: BODY.slice(0, 10) + flipped + BODY.slice(11) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses a signature made with another secret", async () => {
    const other = await slackSignature("another-secret-0000000000000000", TS, BODY);
    expect(await check({ signature: other })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses missing headers, a malformed timestamp and a missing secret", async () => {
    expect(await check({ signature: null })).toMatchObject({ reason: "missing_headers" });
    expect(await check({ timestamp: undefined })).toMatchObject({ reason: "missing_headers" });
    expect(await check({ timestamp: "12a" })).toMatchObject({ reason: "bad_timestamp" });
    expect(await check({ secrets: [""] })).toMatchObject({ reason: "no_secret" });
    expect(await check({ secrets: [undefined, undefined] })).toMatchObject({ reason: "no_secret" });
  });

  it("accepts either secret during a rotation (current or previous), and neither once the old one is removed", async () => {
    const NEW = "new-signing-secret-after-rotation";
    expect(await check({ secrets: [NEW, SECRET] })).toEqual({ ok: true });
    expect(await check({ secrets: [SECRET, NEW] })).toEqual({ ok: true });
    expect(await check({ secrets: [NEW, undefined] })).toEqual({ ok: false, reason: "bad_signature" });
    const signedNew = await slackSignature(NEW, TS, BODY);
    expect(await check({ secrets: [NEW, SECRET], signature: signedNew })).toEqual({ ok: true });
  });

  it("accepts 299 s of skew and refuses 301 s either way", async () => {
    expect(await check({ nowMs: NOW + 299_000 })).toEqual({ ok: true });
    expect(await check({ nowMs: NOW - 299_000 })).toEqual({ ok: true });
    expect(await check({ nowMs: NOW + 301_000 })).toMatchObject({ reason: "stale" });
    expect(await check({ nowMs: NOW - 301_000 })).toMatchObject({ reason: "stale" });
  });
});

describe("timingSafeEqual", () => {
  it("is true only for equal strings", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true);
    expect(timingSafeEqual("abc", "abd")).toBe(false);
    expect(timingSafeEqual("abc", "abcd")).toBe(false);
    expect(timingSafeEqual("", "a")).toBe(false);
  });
});
