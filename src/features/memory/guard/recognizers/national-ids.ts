// Recognizers of national identifiers (US, UK, CA, AU, IN, BR, DE, FR, ES, IT, NL, SG, JP): pattern, check-digit validator, local context words.
import * as check from "./checksums";
import { contextSource, patternsOf, type Recognizer } from "./recognizer";

const ctx = (words: string[]) => new RegExp(contextSource(words), "i");

/** Not inside a longer number or word (before); not followed by more of one (after). */
const B = "(?<![A-Za-z0-9.,/-])";
const E = "(?![A-Za-z0-9]|[.,/-]\\d)";
const digitsOf = (m: RegExpExecArray) => m[0].replace(/\D/g, "");

export const NATIONAL_ID_RECOGNIZERS: Recognizer[] = [
  {
    id: "pii.national_id.uk_nino",
    family: "pii",
    pattern: new RegExp(`${B}([A-Z]{2}) ?(\\d{2}) ?(\\d{2}) ?(\\d{2}) ?([A-D])${E}`, "gi"),
    validate: (m) => check.ninoPrefix((m[1] as string).toUpperCase()),
    strong: true,
    context: ctx(["ni(?: number| no)?", "nino", "national insurance"]),
  },
  {
    id: "pii.national_id.uk_nhs",
    family: "pii",
    pattern: new RegExp(`${B}\\d{3}([ -]?)\\d{3}\\1\\d{4}${E}`, "g"),
    validate: (m) => check.nhs(digitsOf(m)),
    context: ctx(["nhs"]),
  },
  {
    id: "pii.national_id.ca_sin",
    family: "pii",
    pattern: new RegExp(`${B}\\d{3}([ .-]?)\\d{3}\\1\\d{3}${E}`, "g"),
    validate: (m) => check.sin(digitsOf(m)),
    context: ctx(["sin", "social insurance", "nas", "assurance sociale"]),
  },
  {
    id: "pii.national_id.au_tfn",
    family: "pii",
    pattern: new RegExp(`${B}\\d{3}([ .-]?)\\d{3}\\1\\d{3}${E}`, "g"),
    validate: (m) => check.tfn(digitsOf(m)),
    context: ctx(["tfn", "tax file"]),
  },
  {
    id: "pii.national_id.au_medicare",
    family: "pii",
    pattern: new RegExp(`${B}[2-6]\\d{3}([ -]?)\\d{5}\\1\\d(?:[ /-]?\\d)?${E}`, "g"),
    validate: (m) => check.medicare(digitsOf(m)),
    context: ctx(["medicare"]),
  },
  {
    id: "pii.national_id.in_aadhaar",
    family: "pii",
    pattern: new RegExp(`${B}[2-9]\\d{3}([ -]?)\\d{4}\\1\\d{4}${E}`, "g"),
    validate: (m) => check.verhoeff(digitsOf(m)),
    // the Unicode reading drops Devanagari vowel signs and katakana voicing marks (combining marks): both spellings
    context: ctx(["aadhaa?r", "aadhar", "uid(?:ai)?", "आधा?र"]),
  },
  {
    id: "pii.national_id.in_pan",
    family: "pii",
    // fourth letter: the holder type (P person, C company, H HUF, F firm, A AOP, T trust, B BOI, L local, J juridical, G government)
    pattern: new RegExp(`${B}[A-Z]{3}[PCHFATBLJG][A-Z]\\d{4}[A-Z]${E}`, "gi"),
    validate: (m) => /^[A-Z]{5}\d{4}[A-Z]$/.test(m[0]) || /^[a-z]{5}\d{4}[a-z]$/.test(m[0]),
    context: ctx(["pan", "permanent account"]),
  },
  {
    id: "pii.national_id.br_cpf",
    family: "pii",
    pattern: new RegExp(`${B}\\d{3}(\\.?)\\d{3}\\1\\d{3}-?\\d{2}${E}`, "g"),
    validate: (m) => check.cpf(digitsOf(m)),
    strong: (m) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(m[0]),
    context: ctx(["cpf", "cadastro de pessoas"]),
  },
  {
    id: "pii.national_id.br_cnpj",
    family: "pii",
    pattern: new RegExp(`${B}\\d{2}(\\.?)\\d{3}\\1\\d{3}/?\\d{4}-?\\d{2}${E}`, "g"),
    validate: (m) => check.cnpj(digitsOf(m)),
    strong: (m) => /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/.test(m[0]),
    context: ctx(["cnpj"]),
  },
  {
    id: "pii.national_id.de_steuer_id",
    family: "pii",
    pattern: new RegExp(`${B}[1-9]\\d( ?)\\d{3}\\1\\d{3}\\1\\d{3}${E}`, "g"),
    validate: (m) => check.steuerId(digitsOf(m)),
    context: ctx([
      "steuer ?id",
      "steuer identifikationsnummer",
      "steueridentifikationsnummer",
      "identifikationsnummer",
      "id ?nr",
      "tax id",
      "steuernummer",
    ]),
  },
  {
    id: "pii.national_id.fr_insee",
    family: "pii",
    pattern: new RegExp(`${B}[1278]( ?)\\d{2}\\1\\d{2}\\1(?:\\d{2}|2[AB])\\1\\d{3}\\1\\d{3}\\1?\\d{2}${E}`, "gi"),
    validate: (m) => check.insee(m[0].replace(/ /g, "")),
    strong: true,
    context: ctx(["insee", "nir", "s[ée]curit[ée] sociale", "s[ée]cu"]),
  },
  {
    id: "pii.national_id.es_dni",
    family: "pii",
    pattern: new RegExp(`${B}([XYZ]\\d{7}|\\d{8})([ -]?)([A-Z])${E}`, "gi"),
    validate: (m) => check.dni(m[1] as string, m[3] as string),
    // "12345678 a" with a space could be a count and a word: the space form needs its context word
    strong: (m) => m[2] !== " ",
    context: ctx(["dni", "nie", "nif", "documento nacional", "identidad"]),
  },
  {
    id: "pii.national_id.it_codice_fiscale",
    family: "pii",
    pattern: new RegExp(`${B}[A-Z]{6}\\d{2}[ABCDEHLMPRST]\\d{2}[A-Z]\\d{3}[A-Z]${E}`, "gi"),
    validate: (m) => check.codiceFiscale(m[0]),
    strong: true,
    context: ctx(["codice fiscale", "cod\\. ?fiscale", "cf"]),
  },
  {
    id: "pii.national_id.nl_bsn",
    family: "pii",
    pattern: new RegExp(`${B}\\d{4}(\\.?)\\d{2}\\1\\d{3}${E}`, "g"),
    validate: (m) => check.bsn(digitsOf(m)),
    context: ctx(["bsn", "burgerservicenummer", "sofi(?:nummer)?"]),
  },
  {
    id: "pii.national_id.sg_nric",
    family: "pii",
    pattern: new RegExp(`${B}[STFG]\\d{7}[A-Z]${E}`, "gi"),
    validate: (m) => check.nric(m[0]),
    strong: true,
    context: ctx(["nric", "fin", "ic(?: number| no)?"]),
  },
  {
    id: "pii.national_id.jp_my_number",
    family: "pii",
    pattern: new RegExp(`${B}\\d{4}([ -]?)\\d{4}\\1\\d{4}${E}`, "g"),
    validate: (m) => check.myNumber(digitsOf(m)),
    context: ctx(["my ?number", "マイナン[バハ]ー", "個人番号"]),
  },
];

/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = patternsOf(NATIONAL_ID_RECOGNIZERS);
