// Properties of the guard's normalisation and validated detectors (cards, IBANs, keys) and the benign look-alikes they must pass.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIGIT_ZEROS, groupCard, inScript } from "../../../../test/fixtures/guard-corpus";
import { hasAnnouncedSecret, hasCardNumber, hasIban, hasPhone, hasPrivateKeyBody, hasSsn, luhn } from "./detectors";
import { scanFields } from "./guard";
import { decodeEscapes, normalizeUnicode, reassemble } from "./normalize";

const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((d) => d.join(""));
const HEX = "0123456789abcdef".split("");
const hex = (n: number) => fc.array(fc.constantFrom(...HEX), { minLength: n, maxLength: n }).map((d) => d.join(""));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".split("");
const alnum = (min: number, max: number) =>
  fc.array(fc.constantFrom(...ALNUM), { minLength: min, maxLength: max }).map((d) => d.join(""));

/** A Luhn-valid 16-digit Visa or Mastercard number from 14 free digits. */
const card16 = fc.tuple(fc.constantFrom("4", "51", "55"), digits(14)).map(([p, body]) => {
  const stem = (p + body).slice(0, 15);
  const check = [..."0123456789"].find((d) => luhn(stem + d)) as string;
  return stem + check;
});
const separator = fc.constantFrom("", " ", "-", ".", "/", "_");
const script = fc.constantFrom(48, ...DIGIT_ZEROS);

const refused = async (text: string) => scanFields([{ path: "text", value: text }]);

describe("cards", () => {
  it("any Luhn-valid 16-digit card with any single separator and any digit script is refused as PII", async () => {
    await fc.assert(
      fc.asyncProperty(card16, separator, script, async (n, sep, zero) => {
        const v = await refused(`Customer paid with ${inScript(groupCard(n, sep), zero)} yesterday.`);
        expect(v).toMatchObject({ ok: false, code: "pii_detected" });
        expect(v.ok ? [] : v.ruleIds).toContain("pii.card_number");
      }),
      { numRuns: 150 },
    );
  });
  it("a number one digit off the Luhn check is not a card", () => {
    fc.assert(
      fc.property(card16, separator, (n, sep) => {
        const wrong = n.slice(0, 15) + String((Number(n[15]) + 1) % 10);
        expect(hasCardNumber(groupCard(wrong, sep))).toBe(false);
      }),
    );
  });
  it("mixed separators or non-card groupings are not cards (order ids, stats)", () => {
    expect(hasCardNumber("4111 1111-1111.1111")).toBe(false);
    expect(hasCardNumber("411-1111111-11111")).toBe(false);
    expect(hasCardNumber("4111 1111 1111 1111")).toBe(true);
  });
});

describe("IBAN", () => {
  const ibanOf = (bban: string) => {
    let rem = 0;
    for (const d of `${bban}131400`) rem = (rem * 10 + Number(d)) % 97; // "DE" → 13 14
    return `DE${String(98 - rem).padStart(2, "0")}${bban}`;
  };
  it("any German IBAN (valid check digits) is found, compact or in groups of four", () => {
    fc.assert(
      fc.property(digits(18), fc.boolean(), (bban, spaced) => {
        const iban = ibanOf(bban);
        expect(hasIban(`Wire to ${spaced ? iban.replace(/(.{4})(?=.)/g, "$1 ") : iban} bounced`)).toBe(true);
      }),
    );
  });
  it("a single changed digit breaks the mod-97 check", () => {
    fc.assert(
      fc.property(digits(18), fc.integer({ min: 4, max: 21 }), (bban, at) => {
        const iban = ibanOf(bban);
        const changed = iban.slice(0, at) + String((Number(iban[at]) + 1) % 10) + iban.slice(at + 1);
        expect(hasIban(changed)).toBe(false);
      }),
    );
  });
});

describe("benign look-alikes", () => {
  it("random UUIDs, hex hashes and commit SHAs in a sentence are never refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.constantFrom(32, 40, 64), hex(64), async (uuid, n, h) => {
        const v = await refused(`Run ${uuid} failed at commit ${h.slice(0, n)} (sha ${h}); retried.`);
        expect(v).toEqual({ ok: true });
      }),
      { numRuns: 150 },
    );
  });
  it("prose that mentions a password without one, and numbers that are not PII, pass the detectors", () => {
    for (const t of [
      "The password policy now requires 14 characters.",
      "Admin password is stored in Vault under kv/ops.",
      "The token is valid for 900 seconds.",
      "pwd=/srv/app during the cron job",
      "API key is missing from the request.",
    ])
      expect(hasAnnouncedSecret(t), t).toBe(false);
    expect(hasPhone("Ticket 4155550134 closed")).toBe(false);
    expect(hasSsn("Ticket 219091234 closed")).toBe(false);
    // a public key and a certificate open with a SEQUENCE, not the version INTEGER of a private key
    expect(hasPrivateKeyBody(`MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${"A".repeat(80)}`)).toBe(false);
    expect(hasPrivateKeyBody(`MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa${"A".repeat(80)}`)).toBe(false);
  });
});

describe("keys and announced secrets", () => {
  it("a leaked Warden key (wdn_live_/wdn_test_ + ≥ 20 key characters, or legacy wk_) is refused as a secret", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("wdn_live_", "wdn_test_"), alnum(20, 60), async (prefix, body) => {
        const v = await refused(`Agent config had ${prefix}${body} in it.`);
        expect(v).toMatchObject({ ok: false, code: "redaction_required" });
        expect(v.ok ? [] : v.ruleIds).toContain("secret.warden_api_key");
      }),
      { numRuns: 60 },
    );
    const legacy = await refused(`key wk_0123456789ab_${"Ab3_-".repeat(8)}xyz in the CI log`);
    expect(legacy.ok ? [] : legacy.ruleIds).toContain("secret.warden_api_key");
    expect((await refused("wdn_live_ is the prefix of live keys")).ok).toBe(true);
  });
  it("a GitHub token split by spaces or hyphens into chunks of 4-8 is refused", async () => {
    await fc.assert(
      fc.asyncProperty(
        alnum(36, 36),
        fc.integer({ min: 4, max: 8 }),
        fc.constantFrom(" ", "-", " - "),
        async (body, size, sep) => {
          const key = `ghp_${body}`;
          const split = key.match(new RegExp(`.{1,${size}}`, "g"))?.join(sep) as string;
          expect((await refused(`Key from the ticket: ${split}`)).ok).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
  it("announced passwords are found; the value must look secret", () => {
    expect(hasAnnouncedSecret("the admin password is Summer2024!")).toBe(true);
    expect(hasAnnouncedSecret("{'pw': 'Xk9#mQ2v'}")).toBe(true);
    expect(hasAnnouncedSecret("vault unseal key is cXdlcnR5dWlvcGFzZGZnaGprbA==")).toBe(true);
    expect(hasAnnouncedSecret("the password is rotated")).toBe(false);
  });
});

describe("normalisation", () => {
  it("variation selectors and combining marks after any ASCII character fold away", () => {
    fc.assert(
      fc.property(
        alnum(1, 40),
        fc.array(fc.constantFrom("\ufe0f", "\ufe00", "\u0301", "\u0336", "\u200b"), { minLength: 1, maxLength: 40 }),
        (s, marks) => {
          const decorated = Array.from(s, (c, i) => c + (marks[i % marks.length] as string)).join("");
          expect(normalizeUnicode(decorated)).toBe(s);
        },
      ),
    );
  });
  it("decimal digits of any script read as ASCII digits", () => {
    fc.assert(
      fc.property(digits(12), script, (d, zero) => {
        expect(normalizeUnicode(inScript(d, zero))).toBe(d);
      }),
    );
  });
  it("Cyrillic and Greek homoglyphs map to their Latin skeleton", () => {
    expect(normalizeUnicode("ѕk_lіvе_АВС")).toBe("sk_live_ABC");
    expect(normalizeUnicode("ΑΚΙΑ")).toBe("AKIA");
  });
  it("decodes JSON escapes and HTML character references", () => {
    expect(decodeEscapes("\\u0067\\u0068p_&#65;&#x42;&lowbar;&commat;\\x41\\u{43}")).toBe("ghp_AB_@AC");
    expect(decodeEscapes("&#xD800; &bogus; \\uZZZZ")).toBe("&#xD800; &bogus; \\uZZZZ");
  });
  it("puts spelled-out e-mails back together, but not prose with 'at'", () => {
    for (const t of [
      "jane.doe [at] example [dot] com",
      "jane.doe(at)example.com",
      "jane.doe at example.com",
      "jane.doe @ example.com",
      "jane dot doe at example dot com",
    ])
      expect(reassemble(t), t).toContain("jane.doe@example.com");
    expect(reassemble("failed at ingest.worker after 3 tries")).not.toContain("@");
  });
});
