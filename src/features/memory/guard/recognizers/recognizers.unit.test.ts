// Each recognizer alone: a context word decides for weak identifiers, validators drop look-alikes, documented examples and encrypted values pass.
import { describe, expect, it } from "vitest";
import { scanFields } from "../guard";
import { maskKnownBenign } from "./allowlist";
import { SECRET_RECOGNIZERS } from "./cloud-secrets";
import { NATIONAL_ID_RECOGNIZERS } from "./national-ids";
import { QUASI_RECOGNIZERS } from "./quasi";
import { contextSource, recognizerRule, SCORE, shortestMatch, THRESHOLD } from "./recognizer";

const rules = [...NATIONAL_ID_RECOGNIZERS, ...QUASI_RECOGNIZERS, ...SECRET_RECOGNIZERS].map(recognizerRule);
/** The ids of the recognizers that refuse `text`. */
const firing = (text: string) => [...new Set(rules.filter((r) => r.test(text)).map((r) => r.id))];
const refused = async (text: string) => !(await scanFields([{ path: "text", value: text }])).ok;

describe("scores", () => {
  it("strong and validated is refused alone; weak and validated, or strong alone, needs a context word", () => {
    expect(SCORE.STRONG + SCORE.VALIDATED).toBeGreaterThanOrEqual(THRESHOLD);
    expect(SCORE.WEAK + SCORE.VALIDATED).toBeLessThan(THRESHOLD);
    expect(SCORE.STRONG).toBeLessThan(THRESHOLD);
    expect(SCORE.WEAK + SCORE.VALIDATED + SCORE.CONTEXT).toBeGreaterThanOrEqual(THRESHOLD);
    expect(SCORE.WEAK + SCORE.CONTEXT).toBeGreaterThanOrEqual(THRESHOLD);
  });
  it("context words stand alone when short and count inside identifiers when long", () => {
    const re = new RegExp(contextSource(["pan", "steuer ?id", "identifikationsnummer"]), "i");
    expect(re.test("pan: x")).toBe(true);
    expect(re.test("japan x")).toBe(false);
    expect(re.test("steuerlicheidentifikationsnummer")).toBe(true);
  });
});

describe("national identifiers", () => {
  it("a checksum-valid number needs its context word when its format is not distinctive", () => {
    // 4991 1866 5246 passes Verhoeff, 5247 does not
    expect(firing("Aadhaar: 4991 1866 5246")).toContain("pii.national_id.in_aadhaar");
    expect(firing("order 4991 1866 5246 shipped")).not.toContain("pii.national_id.in_aadhaar");
    expect(firing("Aadhaar: 4991 1866 5247")).not.toContain("pii.national_id.in_aadhaar");
    expect(firing("Steuer-ID 86095742719")).toContain("pii.national_id.de_steuer_id");
    expect(firing("rows 86095742719")).toEqual([]);
    expect(firing("BSN 111222333")).toContain("pii.national_id.nl_bsn");
    expect(firing("TFN 123 456 782")).toContain("pii.national_id.au_tfn");
    expect(firing("nhs no 943 476 5919")).toContain("pii.national_id.uk_nhs");
  });
  it("a distinctive format with a valid check is refused without context", () => {
    expect(firing("QQ123456C and AB 12 34 56 C")).toContain("pii.national_id.uk_nino");
    expect(firing("ref 111.444.777-35")).toContain("pii.national_id.br_cpf");
    expect(firing("ref 11.222.333/0001-81")).toContain("pii.national_id.br_cnpj");
    expect(firing("ref RSSMRA85T10A562S")).toContain("pii.national_id.it_codice_fiscale");
    expect(firing("ref s1234567d")).toContain("pii.national_id.sg_nric");
    expect(firing("ref 12345678-Z")).toContain("pii.national_id.es_dni");
    expect(firing("ref 111.444.777-36")).toEqual([]);
    expect(firing("ref RSSMRA85T10A562T")).toEqual([]);
  });
});

describe("quasi-identifiers", () => {
  it("a date is a date of birth only with birth context", async () => {
    expect(await refused("DOB: 1984-03-12")).toBe(true);
    expect(await refused("Geburtsdatum 12.03.1984")).toBe(true);
    expect(await refused("née le 3 mars 1971")).toBe(true);
    expect(await refused("deployed on 1984-03-12")).toBe(false);
    expect(await refused("the born-again cluster was rebuilt on 2026-02-03")).toBe(false);
  });
  it("a document number needs its context word; a bare number or a city alone passes", async () => {
    expect(await refused("passport no. X1234567")).toBe(true);
    expect(await refused("MRN 00482913")).toBe(true);
    expect(await refused("driver's license: D1234567")).toBe(true);
    expect(await refused("ticket 00482913 closed")).toBe(false);
    expect(await refused("the team in Frankfurt and Paris")).toBe(false);
  });
  it("a street line is an address with a postcode or a label", async () => {
    expect(await refused("ship to 221B Baker Street, London NW1 6XE")).toBe(true);
    expect(await refused("12 rue de la Paix, 75002 Paris")).toBe(true);
    expect(await refused("Hauptstraße 5, 10115 Berlin")).toBe(true);
    expect(await refused("home address: 42 Elm St")).toBe(true);
    expect(await refused("the Baker Street office is closed")).toBe(false);
    expect(await refused("moved 3 pods off Park Way rack")).toBe(false);
  });
});

describe("secrets beyond prefixes", () => {
  it("refuses passwords in prose, SAS signatures, client secrets, service-account keys and kubeconfig tokens", async () => {
    expect(firing("the password for the staging box is Tr0ub4dor&3")).toContain("secret.credential_in_prose");
    expect(firing("use Kx9!mQ2pLz as the password for grafana")).toContain("secret.credential_in_prose");
    expect(firing("| user | password |\n|---|---|\n| ops | 9fQ2xLk7Pz |")).toContain("secret.credential_context");
    expect(firing("?sv=2022-11-02&sig=CzhmgcStLYfrohqYLUZ0mF0U0uuSTSMEvFrn7laJmng%3D")).toContain("secret.azure_sas");
    expect(firing("secret abc8Q~abcdefghijklmnopqrstuvwxyz01234")).toContain("secret.azure_client_secret");
    expect(firing('"private_key_id": "1575a7ed9a8eb6e26ae3ae3fa548b2e96cc80d4e"')).toContain(
      "secret.gcp_service_account",
    );
    expect(firing("token: abcdef.0123456789abcdef")).toContain("secret.kubeconfig");
  });
  it("accepts placeholders and names next to credential words", async () => {
    for (const text of [
      "password: changeme",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal env placeholder
      "API_KEY=${API_KEY}",
      "token: <your-token>",
      "db_password={{ secrets.DB_PASSWORD }}",
      "rotated the password for staging yesterday",
      "token refresh scheduled worker=checkout-71dc97d91-727vc",
    ])
      expect(await refused(text), text).toBe(false);
  });
});

describe("known false positives stay accepted", () => {
  it("documented example keys, SOPS values, age and PGP armour", async () => {
    for (const text of [
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc",
      "password: ENC[AES256_GCM,data:gFH1ZqBB3OZm7IXDEp8GQ=,iv:G5iY9PI2uVilKWnU9nt0lLDCUqpHJcq5gf/2UO9oCYc=,tag:tMpsv4ANdZBCO4vWJI+Ps4==,type:str]",
      `-----BEGIN AGE ENCRYPTED FILE-----\n${btoa("age-encryption.org/v1\n-> X25519 abc\n")}\n-----END AGE ENCRYPTED FILE-----`,
    ])
      expect(await refused(text), text).toBe(false);
  });
  it("only the documented values: a random test key and a private-key armour are still refused", async () => {
    expect(await refused("sk_test_Zq8XnR2vLp0KcT5mWy7Bd3Hf")).toBe(true);
    expect(maskKnownBenign("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----")).toContain(
      "PRIVATE KEY",
    );
    expect(maskKnownBenign("-----BEGIN PGP MESSAGE-----\nghp_notbase64!\n-----END PGP MESSAGE-----")).toContain("ghp_");
  });
});

describe("shortestMatch", () => {
  it("counts the shortest text a context word matches", () => {
    expect(shortestMatch("dob")).toBe(3);
    expect(shortestMatch("d[ .]?o[ .]?b\\.?")).toBe(3);
    expect(shortestMatch("born(?: on)?")).toBe(4);
    expect(shortestMatch("ni(?: number| no)?")).toBe(2);
    expect(shortestMatch("aadhaa?r")).toBe(6);
    expect(shortestMatch("passwords?")).toBe(8);
    expect(shortestMatch("s[ée]cu")).toBe(4);
  });
});
