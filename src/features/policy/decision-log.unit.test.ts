// sha256Hex (the decision log's inputs_digest): the FIPS 180-4 vectors and the synchronous implementation agree with it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/digest";
import { sha256HexSync } from "../../lib/sha256";

describe("sha256Hex", () => {
  it("gives the FIPS 180-4 digests as 64 lowercase hex digits", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("equals the synchronous SHA-256 on any text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), async (text) => {
        expect(await sha256Hex(text)).toBe(sha256HexSync(text));
      }),
      { numRuns: 300 },
    );
  });
});
