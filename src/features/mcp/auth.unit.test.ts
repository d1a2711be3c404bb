// An API key at /mcp becomes the principal POST /v1/tokens would mint: the key's identity and creator, ≤ 900 s.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiKeyIdentity } from "../../auth/api-keys";
import { principalFromKey } from "./auth";

const key = (expiresAt: number | null): ApiKeyIdentity => ({
  id: "key_1",
  teamId: "team-a",
  subject: "agent:a1",
  scopes: ["policy:decide", "runs:read"],
  runId: "run_9",
  expiresAt,
  createdBy: "alice",
});

describe("principalFromKey", () => {
  it("carries the key's team, subject, scopes, run, id and creator", () => {
    const p = principalFromKey(key(null), 1_000_000);
    expect(p).toMatchObject({
      teamId: "team-a",
      subject: "agent:a1",
      runId: "run_9",
      keyId: "key_1",
      keyIssuer: "alice",
    });
    expect([...p.scopes]).toEqual(["policy:decide", "runs:read"]);
  });

  it("lives at most 900 s and never past the key's expiry", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.option(fc.integer({ min: 0, max: 2 ** 40 })), (now, exp) => {
        const p = principalFromKey(key(exp), now);
        expect(p.expiresAtMs).toBeLessThanOrEqual(now + 900_000);
        if (exp !== null) expect(p.expiresAtMs).toBeLessThanOrEqual(exp);
        expect(p.expiresAtMs).toBe(Math.min(now + 900_000, exp ?? Number.POSITIVE_INFINITY));
      }),
    );
  });
});
