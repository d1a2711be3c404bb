// National identifiers generated from their public format definitions, with valid check digits (not copied from any list).
export type Rand = () => number;

export const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
export const digits = (r: Rand, n: number) => Array.from({ length: n }, () => int(r, 0, 9)).join("");
const nums = (s: string) => [...s].map(Number);

/** Luhn check digit of a body. */
function luhnDigit(body: string): number {
  for (let d = 0; d <= 9; d++) {
    let sum = 0;
    let dbl = false;
    const n = body + d;
    for (let i = n.length - 1; i >= 0; i--) {
      let x = n.charCodeAt(i) - 48;
      if (dbl) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
      sum += x;
      dbl = !dbl;
    }
    if (sum % 10 === 0) return d;
  }
  return 0;
}

/** US SSN: area 001–899 except 666, group 01–99, serial 0001–9999 (SSA). */
export const usSsn = (r: Rand) => [
  String(pick(r, [int(r, 1, 665), int(r, 667, 899)])).padStart(3, "0"),
  String(int(r, 1, 99)).padStart(2, "0"),
  String(int(r, 1, 9999)).padStart(4, "0"),
];

/** UK NINO: prefix letters (not D F I Q U V; second not O; not BG GB KN NK NT TN ZZ), six digits, suffix A–D. */
export function ukNino(r: Rand): string[] {
  const first = "ABCEGHJKLMNOPRSTWXYZ";
  const second = "ABCEGHJKLMNPRSTWXYZ";
  let prefix = "";
  do prefix = pick(r, [...first]) + pick(r, [...second]);
  while (["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].includes(prefix));
  const d = digits(r, 6);
  return [prefix, d.slice(0, 2), d.slice(2, 4), d.slice(4), pick(r, ["A", "B", "C", "D"])];
}

/** Canadian SIN: nine digits, Luhn, first digit 1–7 or 9 (temporary residents). */
export function caSin(r: Rand): string[] {
  const body = String(pick(r, [1, 2, 3, 4, 5, 6, 7, 9])) + digits(r, 7);
  const n = body + luhnDigit(body);
  return [n.slice(0, 3), n.slice(3, 6), n.slice(6)];
}

/** Australian TFN: nine digits whose weighted sum (1 4 3 7 5 8 6 9 10) is a multiple of 11. */
export function auTfn(r: Rand): string[] {
  const w = [1, 4, 3, 7, 5, 8, 6, 9, 10];
  for (;;) {
    const n = digits(r, 9);
    if (n[0] === "0") continue;
    if (nums(n).reduce((s, d, i) => s + d * (w[i] as number), 0) % 11 === 0)
      return [n.slice(0, 3), n.slice(3, 6), n.slice(6)];
  }
}

/** Australian Medicare: first digit 2–6, 7 digits, check digit (weights 1 3 7 9 1 3 7 9, mod 10), issue number 1–9. */
export function auMedicare(r: Rand): string[] {
  const body = String(int(r, 2, 6)) + digits(r, 7);
  const w = [1, 3, 7, 9, 1, 3, 7, 9];
  const check = nums(body).reduce((s, d, i) => s + d * (w[i] as number), 0) % 10;
  const n = `${body}${check}${int(r, 1, 9)}`;
  return [n.slice(0, 4), n.slice(4, 9), n.slice(9)];
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/** Verhoeff check digit of a body (the digit that makes body+digit check to 0). */
export function verhoeffDigit(body: string): number {
  let c = 0;
  const rev = nums(body).reverse();
  for (let i = 0; i < rev.length; i++) c = VERHOEFF_D[c]![VERHOEFF_P[(i + 1) % 8]![rev[i]!]!]!;
  return VERHOEFF_INV[c]!;
}

/** Aadhaar: twelve digits, first 2–9, Verhoeff check digit (UIDAI). */
export function inAadhaar(r: Rand): string[] {
  const body = String(int(r, 2, 9)) + digits(r, 10);
  const n = body + verhoeffDigit(body);
  return [n.slice(0, 4), n.slice(4, 8), n.slice(8)];
}

/** PAN: five letters (the fourth the holder type, P for a person), four digits, one letter. */
export function inPan(r: Rand): string {
  const L = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const letters = (n: number) => Array.from({ length: n }, () => pick(r, [...L])).join("");
  return `${letters(3)}${pick(r, ["P", "P", "P", "C", "H", "F"])}${letters(1)}${digits(r, 4)}${letters(1)}`;
}

/** mod-11 check digit as CPF/CNPJ compute it: 11 − (Σ w·d mod 11), 0 when that is ≥ 10. */
const mod11 = (ds: number[], w: number[]) => {
  const rest = ds.reduce((s, d, i) => s + d * (w[i] as number), 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
};

/** CPF: nine digits, two mod-11 check digits (weights 10…2, then 11…2). */
export function brCpf(r: Rand): string[] {
  let body: number[];
  do body = nums(digits(r, 9));
  while (new Set(body).size === 1);
  const d1 = mod11(body, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...body, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const n = `${body.join("")}${d1}${d2}`;
  return [n.slice(0, 3), n.slice(3, 6), n.slice(6, 9), n.slice(9)];
}

/** CNPJ: eight digits, a branch (0001…), two mod-11 check digits (weights 5…2 9…2, then 6…2 9…2). */
export function brCnpj(r: Rand): string[] {
  const body = nums(digits(r, 8) + String(int(r, 1, 12)).padStart(4, "0"));
  const d1 = mod11(body, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...body, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const n = `${body.join("")}${d1}${d2}`;
  return [n.slice(0, 2), n.slice(2, 5), n.slice(5, 8), n.slice(8, 12), n.slice(12)];
}

/** German Steuer-ID: eleven digits, first not 0, in the first ten one digit twice and one missing, ISO 7064 MOD 11,10. */
export function deSteuerId(r: Rand): string {
  const pool = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (;;) {
    const shuffled = [...pool].sort(() => r() - 0.5);
    const ten = shuffled.slice(0, 9);
    ten.splice(int(r, 0, 9), 0, ten[int(r, 0, 8)] as number);
    if (ten[0] === 0) continue;
    let product = 10;
    for (const d of ten) {
      let sum = (d + product) % 10;
      if (sum === 0) sum = 10;
      product = (sum * 2) % 11;
    }
    const check = (11 - product) % 10;
    return ten.join("") + check;
  }
}

/** French NIR (INSEE): sex, year, month, département, commune, order, then the key 97 − (number mod 97). */
export function frInsee(r: Rand): string[] {
  const dept = pick(r, ["75", "69", "13", "33", "59", "2A", "2B", "44", "67", "06"]);
  const parts = [
    String(int(r, 1, 2)),
    digits(r, 2),
    String(int(r, 1, 12)).padStart(2, "0"),
    dept,
    String(int(r, 1, 999)).padStart(3, "0"),
    String(int(r, 1, 999)).padStart(3, "0"),
  ];
  const numeric = parts.join("").replace("2A", "19").replace("2B", "18");
  const key = 97 - Number(BigInt(numeric) % 97n);
  return [...parts, String(key).padStart(2, "0")];
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
/** Spanish DNI (eight digits + letter of n mod 23) or NIE (X/Y/Z read as 0/1/2, seven digits, letter). */
export function esDni(r: Rand): string[] {
  if (r() < 0.6) {
    const n = digits(r, 8);
    return [n, DNI_LETTERS[Number(n) % 23] as string];
  }
  const lead = pick(r, ["X", "Y", "Z"]);
  const n = digits(r, 7);
  return [lead + n, DNI_LETTERS[Number(String("XYZ".indexOf(lead)) + n) % 23] as string];
}

const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const cfValue = (c: string) => (/\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65);
/** Italian codice fiscale: surname and name consonants, year, month letter, day (+40 for women), commune, check letter. */
export function itCodiceFiscale(r: Rand): string {
  const CONS = "BCDFGHLMNPRSTVZ";
  const cons = (n: number) => Array.from({ length: n }, () => pick(r, [...CONS])).join("");
  const day = int(r, 1, 28) + (r() < 0.5 ? 40 : 0);
  const body = `${cons(3)}${cons(3)}${digits(r, 2)}${pick(r, [..."ABCDEHLMPRST"])}${String(day).padStart(2, "0")}${pick(r, [..."ABCDEFGHLMZ"])}${digits(r, 3)}`;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const v = cfValue(body[i] as string);
    sum += i % 2 === 0 ? (CF_ODD[v] as number) : v;
  }
  return body + String.fromCharCode(65 + (sum % 26));
}

/** Dutch BSN: nine digits passing the 11-proof (9·d1 + … + 2·d8 − d9 ≡ 0 mod 11). */
export function nlBsn(r: Rand): string {
  for (;;) {
    const n = String(int(r, 1, 6)) + digits(r, 8);
    const ds = nums(n);
    const s = ds.slice(0, 8).reduce((acc, d, i) => acc + d * (9 - i), 0) - (ds[8] as number);
    if (s % 11 === 0) return n;
  }
}

/** Singapore NRIC/FIN: S/T/F/G, seven digits, check letter from weights 2 7 6 5 4 3 2 (+4 for T and G). */
export function sgNric(r: Rand): string {
  const lead = pick(r, ["S", "T", "F", "G"]);
  const n = digits(r, 7);
  const w = [2, 7, 6, 5, 4, 3, 2];
  const sum = nums(n).reduce((s, d, i) => s + d * (w[i] as number), 0) + (lead === "T" || lead === "G" ? 4 : 0);
  const table = lead === "S" || lead === "T" ? "JZIHGFEDCBA" : "XWUTRQPNMLK";
  return `${lead}${n}${table[sum % 11]}`;
}

/** Japanese My Number: eleven digits and a check digit (weights 2…7, 2…6 from the right; 11 − r, 0 when r ≤ 1). */
export function jpMyNumber(r: Rand): string[] {
  const body = digits(r, 11);
  const rev = nums(body).reverse();
  const sum = rev.reduce((s, d, i) => s + d * (i + 1 <= 6 ? i + 2 : i - 4), 0);
  const rest = sum % 11;
  const n = body + (rest <= 1 ? 0 : 11 - rest);
  return [n.slice(0, 4), n.slice(4, 8), n.slice(8)];
}

/** UK NHS number: ten digits, weights 10…2, check 11 − (Σ mod 11), never 10. */
export function ukNhs(r: Rand): string[] {
  for (;;) {
    const body = digits(r, 9);
    const rest = 11 - (nums(body).reduce((s, d, i) => s + d * (10 - i), 0) % 11);
    if (rest === 10) continue;
    const n = body + (rest === 11 ? 0 : rest);
    return [n.slice(0, 3), n.slice(3, 6), n.slice(6)];
  }
}
