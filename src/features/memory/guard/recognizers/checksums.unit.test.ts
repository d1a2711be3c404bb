// Check-digit validators: the published example of each identifier passes, the generator's ids (written apart from these validators) pass, and any one-digit change fails.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as gen from "../../../../../test/guard-corpus/identifiers";
import * as check from "./checksums";

describe("published examples", () => {
  it("validate", () => {
    expect(check.cpf("11144477735")).toBe(true);
    expect(check.cnpj("11222333000181")).toBe(true);
    expect(check.tfn("123456782")).toBe(true);
    expect(check.bsn("111222333")).toBe(true);
    expect(check.dni("12345678", "Z")).toBe(true);
    expect(check.dni("X1234567", "L")).toBe(true);
    expect(check.codiceFiscale("RSSMRA85T10A562S")).toBe(true);
    expect(check.nric("S1234567D")).toBe(true);
    expect(check.verhoeff("2363")).toBe(true);
    expect(check.nhs("9434765919")).toBe(true);
    expect(check.steuerId("86095742719")).toBe(true);
    expect(check.medicare("2123456701")).toBe(true);
    // the CRA's sample SIN is Luhn-valid but starts with 0, a series never issued
    expect(check.luhn("046454286")).toBe(true);
    expect(check.sin("046454286")).toBe(false);
    expect(check.ninoPrefix("AB")).toBe(true);
    for (const bad of ["BG", "GB", "NK", "TN", "ZZ", "DA", "AO", "QQ"]) expect(check.ninoPrefix(bad)).toBe(false);
  });
  it("reject the same numbers one digit off", () => {
    expect(check.cpf("11144477736")).toBe(false);
    expect(check.cnpj("11222333000182")).toBe(false);
    expect(check.steuerId("86095742718")).toBe(false);
    expect(check.codiceFiscale("RSSMRA85T10A562T")).toBe(false);
    expect(check.nric("S1234567E")).toBe(false);
    expect(check.dni("12345678", "A")).toBe(false);
  });
});

/** Every generator of the corpus with the validator of the same identifier. */
const PAIRS: [string, (r: () => number) => string, (s: string) => boolean][] = [
  ["ca_sin", (r) => gen.caSin(r).join(""), check.sin],
  ["au_tfn", (r) => gen.auTfn(r).join(""), check.tfn],
  ["au_medicare", (r) => gen.auMedicare(r).join(""), check.medicare],
  ["in_aadhaar", (r) => gen.inAadhaar(r).join(""), check.verhoeff],
  ["br_cpf", (r) => gen.brCpf(r).join(""), check.cpf],
  ["br_cnpj", (r) => gen.brCnpj(r).join(""), check.cnpj],
  ["de_steuer_id", (r) => gen.deSteuerId(r), check.steuerId],
  ["fr_insee", (r) => gen.frInsee(r).join(""), check.insee],
  ["nl_bsn", (r) => gen.nlBsn(r), check.bsn],
  ["jp_my_number", (r) => gen.jpMyNumber(r).join(""), check.myNumber],
  ["uk_nhs", (r) => gen.ukNhs(r).join(""), check.nhs],
  ["it_codice_fiscale", (r) => gen.itCodiceFiscale(r), check.codiceFiscale],
  ["sg_nric", (r) => gen.sgNric(r), check.nric],
  ["es_dni", (r) => gen.esDni(r).join(""), (s) => check.dni(s.slice(0, -1), s.slice(-1))],
];
const rngOf = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
};

/** mod-11 checks that fold remainders 0 and 1 to one digit (CPF, CNPJ, My Number) miss some one-digit changes. */
const FOLDING = new Set(["br_cpf", "br_cnpj", "jp_my_number"]);

describe.each(PAIRS)("%s", (name, make, valid) => {
  it("accepts every generated identifier and rejects it with one digit changed", () => {
    let changes = 0;
    let caught = 0;
    fc.assert(
      fc.property(fc.integer(), fc.nat(), fc.integer({ min: 1, max: 9 }), (seed, at, delta) => {
        const value = make(rngOf(seed));
        expect(valid(value), value).toBe(true);
        const positions = [...value].flatMap((c, i) => (/\d/.test(c) ? [i] : []));
        const i = positions[at % positions.length] as number;
        // Medicare's last digit is the card's issue number, outside the check
        if (name === "au_medicare" && i === value.length - 1) return;
        const changed = `${value.slice(0, i)}${(Number(value[i]) + delta) % 10}${value.slice(i + 1)}`;
        changes++;
        if (!valid(changed)) caught++;
        else expect(FOLDING.has(name), changed).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(caught / changes).toBeGreaterThanOrEqual(FOLDING.has(name) ? 0.85 : 1);
  });
});
