// Personal-data makers of the guard corpus: national identifiers with their local labels, and quasi-identifiers (birth dates, document numbers, addresses).
import * as id from "./identifiers";
import { digits, int, pick, type Rand } from "./identifiers";

/** One personal value and the label a writer puts before it ("" when the format speaks for itself). */
export type Made = { label: string; value: string };
export type Maker = (r: Rand) => Made;

/** Joins groups with one separator, chosen per value: none, space, hyphen, dot. */
const grouped = (r: Rand, groups: string[], seps = ["", " ", "-", "."]) => groups.join(pick(r, seps));

export const NATIONAL_IDS: Record<string, Maker> = {
  us_ssn: (r) => ({
    label: pick(r, ["SSN", "social security number", "Social Security No.", "soc sec #", "SSN#"]),
    value: grouped(r, id.usSsn(r), [" ", "-", " ", "."]),
  }),
  uk_nino: (r) => ({
    label: pick(r, ["NI number", "National Insurance number", "NINO", "NI no", "national insurance no."]),
    value: grouped(r, id.ukNino(r), ["", " "]),
  }),
  ca_sin: (r) => ({
    label: pick(r, ["SIN", "social insurance number", "numéro d'assurance sociale", "NAS"]),
    value: grouped(r, id.caSin(r)),
  }),
  au_tfn: (r) => ({
    label: pick(r, ["TFN", "tax file number", "Tax File No"]),
    value: grouped(r, id.auTfn(r), ["", " "]),
  }),
  au_medicare: (r) => ({
    label: pick(r, ["Medicare number", "Medicare card", "medicare no"]),
    value: grouped(r, id.auMedicare(r), ["", " "]),
  }),
  in_aadhaar: (r) => ({
    label: pick(r, ["Aadhaar", "Aadhaar number", "UID", "aadhar no", "आधार"]),
    value: grouped(r, id.inAadhaar(r), ["", " ", "-"]),
  }),
  in_pan: (r) => ({ label: pick(r, ["PAN", "PAN card", "permanent account number", "PAN no"]), value: id.inPan(r) }),
  br_cpf: (r) => {
    const g = id.brCpf(r);
    const formatted = r() < 0.7;
    return {
      label: pick(r, formatted ? ["CPF", "CPF do cliente", ""] : ["CPF", "cpf nº", "Cadastro de Pessoas Físicas"]),
      value: formatted ? `${g[0]}.${g[1]}.${g[2]}-${g[3]}` : g.join(""),
    };
  },
  br_cnpj: (r) => {
    const g = id.brCnpj(r);
    const formatted = r() < 0.7;
    return {
      label: pick(r, formatted ? ["CNPJ", "CNPJ da empresa", ""] : ["CNPJ", "cnpj nº"]),
      value: formatted ? `${g[0]}.${g[1]}.${g[2]}/${g[3]}-${g[4]}` : g.join(""),
    };
  },
  de_steuer_id: (r) => {
    const n = id.deSteuerId(r);
    return {
      label: pick(r, [
        "Steuer-ID",
        "Steueridentifikationsnummer",
        "steuerliche Identifikationsnummer",
        "IdNr",
        "tax id",
      ]),
      value: r() < 0.5 ? n : `${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5, 8)} ${n.slice(8)}`,
    };
  },
  fr_insee: (r) => ({
    label: pick(r, ["numéro de sécurité sociale", "NIR", "n° INSEE", "numéro INSEE", "sécu", ""]),
    value: grouped(r, id.frInsee(r), [" ", ""]),
  }),
  es_dni: (r) => {
    const [n, letter] = id.esDni(r);
    const sep = pick(r, ["", "-", " "]);
    // written with a space before the letter, a DNI is only told from a count and a word by its label
    const labels = ["DNI", "NIE", "documento nacional de identidad", "NIF"];
    return { label: pick(r, sep === " " ? labels : [...labels, ""]), value: `${n}${sep}${letter}` };
  },
  it_codice_fiscale: (r) => ({
    label: pick(r, ["codice fiscale", "CF", "cod. fiscale", ""]),
    value: id.itCodiceFiscale(r),
  }),
  nl_bsn: (r) => {
    const n = id.nlBsn(r);
    return {
      label: pick(r, ["BSN", "burgerservicenummer", "sofinummer"]),
      value: r() < 0.6 ? n : `${n.slice(0, 4)}.${n.slice(4, 6)}.${n.slice(6)}`,
    };
  },
  sg_nric: (r) => ({ label: pick(r, ["NRIC", "FIN", "IC number", ""]), value: id.sgNric(r) }),
  jp_my_number: (r) => ({
    label: pick(r, ["My Number", "マイナンバー", "個人番号", "my number card"]),
    value: grouped(r, id.jpMyNumber(r), ["", " ", "-"]),
  }),
  uk_nhs: (r) => ({
    label: pick(r, ["NHS number", "NHS no", "nhs #"]),
    value: grouped(r, id.ukNhs(r), [" ", "", "-"]),
  }),
};

const MONTHS_EN = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTHS_FR = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];
const pad = (n: number) => String(n).padStart(2, "0");

/** A calendar date in one of the ways people write it. */
export function dateText(r: Rand, yearLo = 1940, yearHi = 2008): string {
  const y = int(r, yearLo, yearHi);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  return pick(r, [
    `${y}-${pad(m)}-${pad(d)}`,
    `${pad(d)}/${pad(m)}/${y}`,
    `${pad(m)}/${pad(d)}/${y}`,
    `${pad(d)}.${pad(m)}.${y}`,
    `${MONTHS_EN[m - 1]} ${d}, ${y}`,
    `${d} ${MONTHS_EN[m - 1]} ${y}`,
    `${d} ${MONTHS_FR[m - 1]} ${y}`,
  ]);
}

const STREETS_EN = [
  "Baker Street",
  "Elm St",
  "Maple Avenue",
  "Oak Rd",
  "Sunset Blvd",
  "Church Lane",
  "Hillcrest Drive",
  "King's Road",
  "Park Way",
  "Mill Court",
];
const CITIES = [
  ["Springfield, IL 62704", "Austin, TX 78701", "Portland, OR 97205", "Denver, CO 80202"],
  ["London NW1 6XE", "Manchester M1 1AE", "Leeds LS1 4AP", "Bristol BS1 5TR"],
];

export const QUASI: Record<string, Maker> = {
  dob: (r) => ({
    label: pick(r, [
      "DOB",
      "date of birth",
      "born",
      "born on",
      "birth date",
      "D.O.B.",
      "date de naissance",
      "né le",
      "Geburtsdatum",
      "geboren am",
      "fecha de nacimiento",
      "data di nascita",
      "birthday",
    ]),
    value: dateText(r),
  }),
  passport: (r) => ({
    label: pick(r, [
      "passport",
      "passport no",
      "passport number",
      "Reisepass",
      "numéro de passeport",
      "pasaporte",
      "passaporto",
    ]),
    value: pick(r, [
      digits(r, 9),
      `${pick(r, ["C", "F", "G", "H", "K"])}${digits(r, 8)}`,
      `${pick(r, ["AB", "XK", "PA", "LM"])}${digits(r, 7)}`,
      `${pick(r, ["12", "09", "17"])}${pick(r, ["AB", "CV", "DE"])}${digits(r, 5)}`,
    ]),
  }),
  driving_licence: (r) => ({
    label: pick(r, [
      "driving licence",
      "driver's license",
      "driver license no",
      "DL#",
      "Führerschein",
      "permis de conduire",
      "licencia de conducir",
    ]),
    value: pick(r, [
      `${pick(r, ["A", "B", "D", "S"])}${digits(r, 7)}`,
      `${pick(r, ["MORGA", "SMITH", "JONES"])}${digits(r, 6)}${pick(r, ["SM", "AB", "JK"])}9${pick(r, ["IJ", "XY"])}`,
      digits(r, 9),
      `${pick(r, ["B", "F", "K"])}${digits(r, 3)}${pick(r, ["X", "Y"])}${digits(r, 5)}`,
    ]),
  }),
  mrn: (r) => ({
    label: pick(r, [
      "MRN",
      "medical record number",
      "patient id",
      "patient number",
      "chart #",
      "Patientennummer",
      "dossier patient",
    ]),
    value: pick(r, [digits(r, 7), digits(r, 8), `MRN-${digits(r, 6)}`, `${pick(r, ["H", "P", "MR"])}${digits(r, 7)}`]),
  }),
  address: (r) => {
    const kind = int(r, 0, 5);
    const label = pick(r, ["", "", "address", "home address", "Adresse", "dirección", "mailing address"]);
    if (kind === 0)
      return { label, value: `${int(r, 1, 9800)} ${pick(r, STREETS_EN)}, ${pick(r, CITIES[0] as string[])}` };
    if (kind === 1)
      return { label, value: `${int(r, 1, 400)} ${pick(r, STREETS_EN)}, ${pick(r, CITIES[1] as string[])}` };
    if (kind === 2)
      return {
        label,
        value: `${int(r, 1, 120)} ${pick(r, ["rue de la Paix", "avenue Victor Hugo", "boulevard Voltaire", "rue du Faubourg"])}, ${pick(r, ["75002 Paris", "69003 Lyon", "13001 Marseille"])}`,
      };
    if (kind === 3)
      return {
        label,
        value: `${pick(r, ["Hauptstraße", "Bahnhofstr.", "Lindenweg", "Goetheplatz"])} ${int(r, 1, 180)}, ${pick(r, ["10115 Berlin", "80331 München", "50667 Köln"])}`,
      };
    if (kind === 4)
      return {
        label,
        value: `${pick(r, ["Calle Mayor", "Via Roma", "Viale Europa", "Calle de Alcalá"])} ${int(r, 1, 200)}, ${pick(r, ["28013 Madrid", "00184 Roma", "20121 Milano"])}`,
      };
    return {
      label,
      value: `${pick(r, ["Keizersgracht", "Damstraat", "Kerklaan"])} ${int(r, 1, 400)}, ${pick(r, ["1015 CJ Amsterdam", "3011 AB Rotterdam"])}`,
    };
  },
};
