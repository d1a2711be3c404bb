// Recognizers of quasi-identifiers: a date of birth (a date with birth context), passport, driving-licence and medical-record numbers (an id with its context word), postal addresses.
import { contextSource, patternsOf, type Recognizer } from "./recognizer";

const ctx = (words: string[]) => new RegExp(contextSource(words), "i");

const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|januar|februar|m[äa]rz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre";
const YEAR = "(?:19|20)\\d{2}";

/** Numeric dates (ISO, d/m/y, m/d/y, d.m.y) and written ones ("March 12, 1984", "12 mars 1984"). */
const DATE = new RegExp(
  `(?<![A-Za-z0-9])(?:${YEAR}-\\d{1,2}-\\d{1,2}|\\d{1,2}([/.-])\\d{1,2}\\1${YEAR}|(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?,? ${YEAR}|\\d{1,2}(?:st|nd|rd|th|er)?\\.? (?:of )?(?:${MONTHS})\\.?,? ${YEAR})(?![A-Za-z0-9])`,
  "gi",
);

/** A calendar date that exists (month 1–12, day 1–31 in either order for d/m and m/d forms). */
function plausibleDate(m: RegExpExecArray): boolean {
  const nums = m[0].match(/\d+/g)?.map(Number) ?? [];
  if (nums.length === 2) return (nums[0] as number) >= 1 && (nums[0] as number) <= 31;
  const [a, b, c] = nums as [number, number, number];
  if (a > 1000) return b >= 1 && b <= 12 && c >= 1 && c <= 31;
  return a >= 1 && b >= 1 && ((a <= 31 && b <= 12) || (a <= 12 && b <= 31));
}

const digitCount = (s: string) => s.replace(/\D/g, "").length;

const STREET_SUFFIX_EN =
  "street|st|avenue|ave|road|rd|lane|ln|boulevard|blvd|drive|dr|way|court|ct|place|pl|terrace|crescent|close|square|parkway|highway|hwy";
const STREET_PREFIX =
  "rue|avenue|av\\.|boulevard|bd|chemin|all[ée]e|impasse|quai|place|calle|c/|avenida|paseo|plaza|via|viale|piazza|corso|largo|rua|travessa";
const STREET_COMPOUND =
  "stra(?:ß|ss)e|str\\.|weg|platz|allee|gasse|ring|damm|gracht|straat|laan|plein|kade|singel|dreef";
const W = "[\\p{L}'.-]{1,24}";
/**
 * Street lines, one pattern per word order: "221B Baker Street", "12 rue de la Paix", "Via Roma 12", "Hauptstraße 5",
 * "Keizersgracht 123". Each starts at a word boundary; words are separated by one space and every repetition bounded.
 */
const STREET_LINES = [
  `\\d{1,5}[A-Za-z]?,? (?:${W} ){0,4}(?:${STREET_SUFFIX_EN})\\.?`,
  // the street's name after "rue"/"via" is left to the postcode look-ahead (words of any count up to 40 characters)
  `\\d{1,5}(?:bis|ter)?,? (?:${STREET_PREFIX})`,
  `(?:${STREET_PREFIX}) (?:${W} ){0,4}\\d{1,5}[A-Za-z]?`,
  `\\p{L}{1,30}(?:${STREET_COMPOUND}) \\d{1,5}[A-Za-z]?`,
].map((line) => new RegExp(`(?<![\\p{L}\\p{N}])${line}(?![\\p{L}\\p{N}])`, "giu"));
/** A postcode (US ZIP after a state, UK postcode, NL 1234 AB, a 4–5 digit code before a city) within a short distance. */
const POSTCODE_AFTER =
  /^[^\n]{0,40}?(?:\b[A-Z]{2} \d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b\d{4} ?[A-Z]{2}\b|\b\d{4,5} \p{L}{2,})/iu;

export const QUASI_RECOGNIZERS: Recognizer[] = [
  {
    id: "pii.date_of_birth",
    family: "pii",
    pattern: DATE,
    validate: plausibleDate,
    context: ctx([
      "dob",
      "d[ .]?o[ .]?b\\.?",
      "date of birth",
      "birth ?date",
      "birthday",
      "born(?! again)(?: on)?",
      "date de naissance",
      "n[ée]e? le",
      "geburtsdatum",
      "geboren(?: am)?",
      "fecha de nacimiento",
      "nacid[oa]",
      "data di nascita",
      "nat[oa] il",
      "geboortedatum",
    ]),
  },
  {
    id: "pii.passport_number",
    family: "pii",
    pattern:
      /(?<![A-Za-z0-9])(?:[A-Z]{1,2}\d{6,8}|\d{9}|\d{2}[A-Z]{2}\d{5}|[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8})(?![A-Za-z0-9])/gi,
    validate: (m) => digitCount(m[0]) >= 5,
    context: ctx(["passport", "pass(?:port)? no", "reisepass", "passeport", "pasaporte", "passaporto", "paspoort"]),
  },
  {
    id: "pii.driving_licence",
    family: "pii",
    pattern: /(?<![A-Za-z0-9])[A-Z0-9]{5,18}(?![A-Za-z0-9])/gi,
    // not the hex of Warden's own dead-letter ids (dl_ + 16 hex), whose prefix reads as the context word "DL"
    validate: (m) =>
      digitCount(m[0]) >= 5 &&
      !/^\d{1,4}$/.test(m[0]) &&
      !/dl_$/i.test(m.input.slice(Math.max(0, m.index - 3), m.index)),
    context: ctx([
      "driv(?:ing|er(?:'?s| s)?) licen[cs]e",
      "dl ?#?",
      "licen[cs]e (?:no|number|#)",
      "f[üu]hrerschein",
      "permis de conduire",
      "licencia de conducir",
      "carn[ée] de conducir",
      "patente di guida",
      "rijbewijs",
    ]),
    window: [64, 8],
  },
  {
    id: "pii.medical_record_number",
    family: "pii",
    pattern: /(?<![A-Za-z0-9])(?:MRN-?)?[A-Z]{0,2}\d{6,10}(?![A-Za-z0-9])/gi,
    validate: (m) => digitCount(m[0]) >= 6,
    context: ctx([
      "mrn",
      "medical record",
      "patient ?(?:id|number|no|nr|#)",
      "chart ?#?",
      "patientennummer",
      "dossier (?:patient|m[ée]dical)",
      "hospital number",
    ]),
    window: [64, 8],
  },
  ...STREET_LINES.map(
    (pattern): Recognizer => ({
      id: "pii.postal_address",
      family: "pii",
      requires: /\d/,
      pattern,
      strong: (m, text) => POSTCODE_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 60)),
      validate: () => true,
      context: ctx([
        "address",
        "home address",
        "mailing address",
        "adresse",
        "anschrift",
        "direcci[oó]n",
        "domicilio",
        "indirizzo",
        "adres",
        "lives at",
        "resides at",
      ]),
    }),
  ),
];

/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = patternsOf(QUASI_RECOGNIZERS);
