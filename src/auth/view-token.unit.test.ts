// View tokens: signature, lifetime, kind and team/run binding, tampering (fast-check).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_VIEW_TTL_MS, mintViewToken, opens, verifyViewToken } from "./view-token";

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";
const NOW = 1_767_225_600_000;
const id = fc.string({ minLength: 1, maxLength: 40 });

describe("view tokens", () => {
  it("verifies a run token for its own run and team only", async () => {
    const { token, expires_at_ms } = await mintViewToken(SECRET, { kind: "run", team_id: "t1", run_id: "r1" }, NOW);
    expect(expires_at_ms).toBe(NOW + MAX_VIEW_TTL_MS);
    const v = await verifyViewToken(SECRET, token, NOW + 1000);
    expect(v).toEqual({ ok: true, value: { kind: "run", team_id: "t1", run_id: "r1", expires_at_ms } });
    if (!v.ok) return;
    expect(opens(v.value, { kind: "run", team_id: "t1", run_id: "r1" })).toBe(true);
    expect(opens(v.value, { kind: "run", team_id: "t1", run_id: "r2" })).toBe(false);
    expect(opens(v.value, { kind: "run", team_id: "t2", run_id: "r1" })).toBe(false);
    expect(opens(v.value, { kind: "team", team_id: "t1" })).toBe(false);
  });

  it("verifies a team token for its team's overview only", async () => {
    const { token } = await mintViewToken(SECRET, { kind: "team", team_id: "t1" }, NOW);
    const v = await verifyViewToken(SECRET, token, NOW);
    expect(v.ok && v.value.kind).toBe("team");
    if (!v.ok) return;
    expect(opens(v.value, { kind: "team", team_id: "t1" })).toBe(true);
    expect(opens(v.value, { kind: "team", team_id: "t2" })).toBe(false);
    expect(opens(v.value, { kind: "run", team_id: "t1", run_id: "r1" })).toBe(false);
  });

  it("verifies an artifact token for that one artifact of its run and team only", async () => {
    const scope = { kind: "artifact", team_id: "t1", run_id: "r1", artifact_id: "art_1" } as const;
    const { token, expires_at_ms } = await mintViewToken(SECRET, scope, NOW);
    const v = await verifyViewToken(SECRET, token, NOW);
    expect(v).toEqual({ ok: true, value: { ...scope, expires_at_ms } });
    if (!v.ok) return;
    expect(opens(v.value, scope)).toBe(true);
    expect(opens(v.value, { ...scope, artifact_id: "art_2" })).toBe(false);
    expect(opens(v.value, { ...scope, run_id: "r2" })).toBe(false);
    expect(opens(v.value, { ...scope, team_id: "t2" })).toBe(false);
    expect(opens(v.value, { kind: "run", team_id: "t1", run_id: "r1" })).toBe(false);
    expect(opens(v.value, { kind: "team", team_id: "t1" })).toBe(false);
  });

  it("refuses a token at or after its expiry, and one issued in the future", async () => {
    const { token } = await mintViewToken(SECRET, { kind: "team", team_id: "t1" }, NOW, 60_000);
    expect(await verifyViewToken(SECRET, token, NOW + 59_999)).toMatchObject({ ok: true });
    expect(await verifyViewToken(SECRET, token, NOW + 60_000)).toEqual({ ok: false, error: "view token expired" });
    expect(await verifyViewToken(SECRET, token, NOW - 60_000)).toEqual({
      ok: false,
      error: "view token issued in the future",
    });
  });

  it("refuses to mint a token living longer than 15 minutes or not at all", async () => {
    const scope = { kind: "team", team_id: "t1" } as const;
    await expect(mintViewToken(SECRET, scope, NOW, MAX_VIEW_TTL_MS + 1)).rejects.toThrow(RangeError);
    await expect(mintViewToken(SECRET, scope, NOW, 0)).rejects.toThrow(RangeError);
    await expect(mintViewToken(SECRET, { kind: "team", team_id: "" }, NOW)).rejects.toThrow(RangeError);
  });

  it("refuses a token signed with another secret, or with the API secret directly", async () => {
    const { token } = await mintViewToken(SECRET, { kind: "team", team_id: "t1" }, NOW);
    expect(await verifyViewToken(`${SECRET}x`, token, NOW)).toMatchObject({ ok: false });
    // a payload signed with the raw secret (not the derived view key) does not verify
    const body = token.split(".")[0] as string;
    const raw = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(SECRET),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const sig = new Uint8Array(await crypto.subtle.sign("HMAC", raw, new TextEncoder().encode(body)));
    const forged = `${body}.${btoa(String.fromCharCode(...sig))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "")}`;
    expect(await verifyViewToken(SECRET, forged, NOW)).toEqual({
      ok: false,
      error: "view token signature does not verify",
    });
  });

  it("refuses malformed tokens (empty, one part, three parts, bad base64, oversized)", async () => {
    for (const t of ["", "abc", "a.b.c", "!!.??", "a".repeat(3000), "e30.AAAA"]) {
      expect((await verifyViewToken(SECRET, t, NOW)).ok).toBe(false);
    }
  });

  it("round-trips any ids and binds each token to exactly its team and run", async () => {
    await fc.assert(
      fc.asyncProperty(id, id, id, id, async (team, run, otherTeam, otherRun) => {
        const { token } = await mintViewToken(SECRET, { kind: "run", team_id: team, run_id: run }, NOW);
        const v = await verifyViewToken(SECRET, token, NOW);
        expect(v).toMatchObject({ ok: true, value: { kind: "run", team_id: team, run_id: run } });
        if (!v.ok) return;
        expect(opens(v.value, { kind: "run", team_id: otherTeam, run_id: otherRun })).toBe(
          otherTeam === team && otherRun === run,
        );
        expect(opens(v.value, { kind: "team", team_id: team })).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it("refuses any single-character change of a token", async () => {
    const { token } = await mintViewToken(SECRET, { kind: "run", team_id: "team-a", run_id: "run_1" }, NOW);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), async (i, ch) => {
        fc.pre(token[i] !== ch);
        const tampered = token.slice(0, i) + ch + token.slice(i + 1);
        const v = await verifyViewToken(SECRET, tampered, NOW);
        // the only accepted change is none at all: a last base64 character may carry unused bits
        if (v.ok) expect(v.value).toMatchObject({ kind: "run", team_id: "team-a", run_id: "run_1" });
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a payload swapped from another token (team token body with a run token signature)", async () => {
    const a = await mintViewToken(SECRET, { kind: "run", team_id: "t1", run_id: "r1" }, NOW);
    const b = await mintViewToken(SECRET, { kind: "team", team_id: "t2" }, NOW);
    const swapped = `${b.token.split(".")[0]}.${a.token.split(".")[1]}`;
    expect((await verifyViewToken(SECRET, swapped, NOW)).ok).toBe(false);
  });
});
