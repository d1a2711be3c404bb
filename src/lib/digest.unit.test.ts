// The one home of digests and hex: toHex against the textbook formatting, sha256Hex against the synchronous SHA-256.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex, sha256HexSync, toHex } from "./digest";

const textbook = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("digest", () => {
  it("writes two lowercase hex digits per byte, for arrays and buffers alike", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(toHex(bytes)).toBe(textbook(bytes));
        expect(toHex(bytes.slice().buffer)).toBe(textbook(bytes));
      }),
    );
  });

  it("agrees with the synchronous SHA-256 the pure reducer uses", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        expect(await sha256Hex(text)).toBe(sha256HexSync(text));
      }),
      { numRuns: 50 },
    );
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("writes equal objects with keys in any order as one canonical text", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });
});
