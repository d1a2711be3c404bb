// The synchronous SHA-256 agrees with crypto.subtle on any text (FIPS 180-4 vectors and a fast-check property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256HexSync } from "./sha256";

async function subtleHex(text: string) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("sha256HexSync", () => {
  it("matches the FIPS 180-4 examples", () => {
    expect(sha256HexSync("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256HexSync("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256HexSync("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("agrees with crypto.subtle on any text, across block boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 300 }), async (s) => {
        expect(sha256HexSync(s)).toBe(await subtleHex(s));
      }),
      { numRuns: 300 },
    );
  });
});
