// The bot-token cipher: round trip, no clear text at rest, fresh iv, wrong key and tampering refused.
import { describe, expect, it } from "vitest";
import { createTokenCipher } from "./token-cipher";

describe("createTokenCipher", () => {
  it("round-trips a token and never stores it in clear", async () => {
    const c = createTokenCipher("k".repeat(32));
    const sealed = await c.encrypt("xoxb-123-456-secret");
    expect(sealed).not.toContain("xoxb");
    expect(await c.decrypt(sealed)).toBe("xoxb-123-456-secret");
    expect(await c.encrypt("xoxb-123-456-secret")).not.toBe(sealed);
  });

  it("refuses another key and a tampered ciphertext", async () => {
    const sealed = await createTokenCipher("k".repeat(32)).encrypt("xoxb-1");
    await expect(createTokenCipher("j".repeat(32)).decrypt(sealed)).rejects.toThrow();
    const [v, iv, ct] = sealed.split(".");
    const bytes = Uint8Array.from(atob(ct as string), (ch) => ch.charCodeAt(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = `${v}.${iv}.${btoa(String.fromCharCode(...bytes))}`;
    await expect(createTokenCipher("k".repeat(32)).decrypt(tampered)).rejects.toThrow();
  });
});
