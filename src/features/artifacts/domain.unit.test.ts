// The pure artifact rules: upload headers, overlapping scan chunks (no span is ever cut), guard findings as actions,
// a team's retention bounded by the deployment default.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ARTIFACT_KINDS,
  type ArtifactKind,
  artifactKey,
  checkRetention,
  DAY_MS,
  DEFAULT_RETENTION_DAYS,
  expiresAt,
  limitFor,
  MIB,
  overlappingChunks,
  parseUploadHeaders,
  retentionDays,
  scanOutcome,
  TEXT_ARTIFACT_MAX_BYTES,
} from "./domain";

const sha = "ab".repeat(32);
const headers = (over: Record<string, string | undefined> = {}) => ({
  kind: "log",
  sha256: sha,
  opId: undefined,
  contentType: "text/plain",
  contentLength: "10",
  ...over,
});

describe("parseUploadHeaders", () => {
  it("accepts the four kinds and lower-cases the hash", () => {
    for (const kind of ["log", "json", "blob", "trace"]) {
      const r = parseUploadHeaders(headers({ kind, sha256: sha.toUpperCase() }), 100);
      expect(r).toEqual({ ok: true, value: { kind, sha256: sha, opId: null, contentType: "text/plain" } });
    }
  });

  it("refuses a kind outside the list, a missing or short hash and a bad op id with 400 naming the header", () => {
    const path = (over: Record<string, string | undefined>) => {
      const r = parseUploadHeaders(headers(over), 100);
      return r.ok || r.error.code !== "validation_failed" ? null : r.error.issues[0]?.path;
    };
    expect(path({ kind: "video" })).toBe("x-artifact-kind");
    expect(path({ kind: undefined })).toBe("x-artifact-kind");
    expect(path({ sha256: undefined })).toBe("x-sha256");
    expect(path({ sha256: "abc" })).toBe("x-sha256");
    expect(path({ opId: "has space" })).toBe("x-op-id");
  });

  it("refuses a declared length over the limit (413) and accepts one at it", () => {
    const over = parseUploadHeaders(headers({ contentLength: "101" }), 100);
    expect(over.ok ? null : over.error.code).toBe("payload_too_large");
    expect(parseUploadHeaders(headers({ contentLength: "100" }), 100).ok).toBe(true);
  });

  it("caps text kinds at the scan's limit (a log over 4 MiB: 413 saying to split it or send a blob); blobs keep the per-artifact limit", () => {
    const max = 10 * MIB;
    for (const kind of ["log", "json", "trace"] as const) {
      expect(limitFor(kind, max)).toBe(TEXT_ARTIFACT_MAX_BYTES);
      expect(limitFor(kind, 1000)).toBe(1000);
      const over = parseUploadHeaders(headers({ kind, contentLength: String(TEXT_ARTIFACT_MAX_BYTES + 1) }), max);
      expect(over.ok ? null : over.error).toMatchObject({
        code: "payload_too_large",
        limitBytes: TEXT_ARTIFACT_MAX_BYTES,
        message: expect.stringMatching(/scanned for secrets.*split it, or upload .* as a blob/),
      });
      expect(parseUploadHeaders(headers({ kind, contentLength: String(TEXT_ARTIFACT_MAX_BYTES) }), max).ok).toBe(true);
    }
    expect(limitFor("blob", max)).toBe(max);
    expect(parseUploadHeaders(headers({ kind: "blob", contentLength: String(max) }), max).ok).toBe(true);
  });

  it("defaults the content type to application/octet-stream", () => {
    const r = parseUploadHeaders(headers({ contentType: undefined }), 100);
    expect(r.ok && r.value.contentType).toBe("application/octet-stream");
  });
});

describe("overlappingChunks", () => {
  it("keeps every span of at most the overlap whole inside one chunk, and covers the text", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 59 }),
        fc.nat(),
        fc.nat(),
        (text, size, overlapRaw, a, b) => {
          const overlap = overlapRaw % size;
          const chunks = overlappingChunks(text, size, overlap);
          expect(chunks.every((c) => c.length <= size)).toBe(true);
          expect(chunks.join("").length).toBeGreaterThanOrEqual(text.length);
          if (text.length === 0) return;
          const start = a % text.length;
          const span = text.slice(start, start + (b % (overlap + 1)));
          expect(chunks.some((c) => c.includes(span))).toBe(true);
        },
      ),
    );
  });

  it("returns a short text as it is", () => {
    expect(overlappingChunks("abc", 10, 2)).toEqual(["abc"]);
  });

  it("refuses an overlap as large as the chunk (it would never advance)", () => {
    expect(() => overlappingChunks("abcdef", 3, 3)).toThrow(RangeError);
  });
});

describe("scanOutcome", () => {
  it("refuses on any secret, holds on personal data, and lets raw URLs through", () => {
    expect(scanOutcome([])).toEqual({ action: "store" });
    expect(scanOutcome([{ family: "url", ruleId: "url.raw" }])).toEqual({ action: "store" });
    expect(
      scanOutcome([
        { family: "pii", ruleId: "pii.email" },
        { family: "pii", ruleId: "pii.email" },
      ]),
    ).toEqual({
      action: "hold",
      ruleIds: ["pii.email"],
    });
    expect(
      scanOutcome([
        { family: "pii", ruleId: "pii.email" },
        { family: "secret", ruleId: "secretlint.aws" },
      ]),
    ).toEqual({ action: "refuse", ruleIds: ["secretlint.aws"] });
  });
});

describe("keys and retention", () => {
  it("puts a team's objects under one prefix and a run's under a longer one, ids escaped", () => {
    expect(artifactKey("acme", "run_1", "art_1")).toBe("t/acme/r/run_1/art_1");
    expect(artifactKey("a/b", "r/1", "art_2")).toBe("t/a%2Fb/r/r%2F1/art_2");
  });

  it("keeps json 90 days and the other kinds 30", () => {
    expect(expiresAt("json", 0, DEFAULT_RETENTION_DAYS)).toBe(90 * DAY_MS);
    for (const k of ["log", "trace", "blob"] as const)
      expect(expiresAt(k, 5, DEFAULT_RETENTION_DAYS)).toBe(5 + 30 * DAY_MS);
  });
});

describe("a team's retention", () => {
  const teamDays = fc.record(
    Object.fromEntries(ARTIFACT_KINDS.map((k) => [k, fc.integer({ min: 1, max: 400 })])) as Record<
      ArtifactKind,
      fc.Arbitrary<number>
    >,
    { requiredKeys: [] },
  );

  it("is accepted exactly when no kind is above its default, and the refusal names every such kind and bound", () => {
    fc.assert(
      fc.property(teamDays, (days) => {
        const over = ARTIFACT_KINDS.filter((k) => (days[k] ?? 0) > DEFAULT_RETENTION_DAYS[k]);
        const checked = checkRetention(days);
        expect(checked.ok).toBe(over.length === 0);
        if (!checked.ok) {
          for (const k of over) {
            expect(checked.error.message).toContain(
              `${k}: ${days[k]} days is above the deployment default of ${DEFAULT_RETENTION_DAYS[k]} days`,
            );
          }
        }
      }),
    );
  });

  it("takes the team's days where set and the default elsewhere, never more than the default", () => {
    fc.assert(
      fc.property(teamDays, (days) => {
        const effective = retentionDays(days);
        for (const k of ARTIFACT_KINDS) {
          expect(effective[k]).toBe(Math.min(days[k] ?? DEFAULT_RETENTION_DAYS[k], DEFAULT_RETENTION_DAYS[k]));
        }
      }),
    );
  });
});
