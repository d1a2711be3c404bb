// Check-digit algorithms of national identifiers (from their public definitions): Luhn, Verhoeff, mod 11 (CPF/CNPJ/NHS/BSN/My Number/TFN), ISO 7064 MOD 11,10, INSEE mod 97, DNI, codice fiscale, NRIC.
import { luhn } from "../detectors";

export { luhn };

const nums = (s: string) => Array.from(s, (c) => c.charCodeAt(0) - 48);
const weighted = (ds: number[], w: number[]) => ds.reduce((s, d, i) => s + d * (w[i] ?? 0), 0);

const VERHOEFF_D = [
  "0123456789",
  "1234067895",
  "2340178956",
  "3401289567",
  "4012395678",
  "5987604321",
  "6598710432",
  "7659821043",
  "8765932104",
  "9876543210",
].map(nums);
const VERHOEFF_P = [
  "0123456789",
  "1576283094",
  "5803796142",
  "8916043527",
  "9453126870",
  "4286573901",
  "2793806415",
  "7046913258",
].map(nums);

/** Verhoeff: the whole number (check digit last) folds to 0 (Aadhaar). */
export function verhoeff(digits: string): boolean {
  let c = 0;
  const rev = nums(digits).reverse();
  for (let i = 0; i < rev.length; i++) c = VERHOEFF_D[c]?.[VERHOEFF_P[i % 8]?.[rev[i] as number] as number] as number;
  return c === 0;
}

/** CPF/CNPJ check digit: 11 − (Σ w·d mod 11), 0 when the remainder is below 2. */
const brDigit = (ds: number[], w: number[]) => {
  const rest = weighted(ds, w) % 11;
  return rest < 2 ? 0 : 11 - rest;
};

/** Brazilian CPF: two mod-11 check digits; all-equal digits are invalid. */
export function cpf(d: string): boolean {
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const ds = nums(d);
  const d1 = brDigit(ds.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = brDigit(ds.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return ds[9] === d1 && ds[10] === d2;
}

/** Brazilian CNPJ: two mod-11 check digits over weights 5…2 9…2 and 6…2 9…2. */
export function cnpj(d: string): boolean {
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false;
  const ds = nums(d);
  const d1 = brDigit(ds.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = brDigit(ds.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return ds[12] === d1 && ds[13] === d2;
}

/** German Steuer-ID: first digit not 0; in the first ten one digit appears two or three times; ISO 7064 MOD 11,10. */
export function steuerId(d: string): boolean {
  if (d.length !== 11 || d[0] === "0") return false;
  const counts = new Map<string, number>();
  for (const c of d.slice(0, 10)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const repeated = [...counts.values()].filter((n) => n > 1);
  if (repeated.length !== 1 || (repeated[0] as number) > 3) return false;
  let product = 10;
  for (const x of nums(d.slice(0, 10))) {
    const sum = (x + product) % 10 || 10;
    product = (sum * 2) % 11;
  }
  return (11 - product) % 10 === nums(d)[10];
}

/** French NIR: sex 1/2 (7/8 provisional), month 01–12 (or 20+ when unknown), key = 97 − (number mod 97); Corsica 2A/2B. */
export function insee(compact: string): boolean {
  const s = compact.toUpperCase();
  if (!/^[1278]\d{4}(?:\d{2}|2A|2B)\d{8}$/.test(s)) return false;
  const month = Number(s.slice(3, 5));
  if (month < 1 || (month > 12 && month < 20) || month > 99) return false;
  const numeric = s.slice(0, 13).replace("2A", "19").replace("2B", "18");
  return 97 - Number(BigInt(numeric) % 97n) === Number(s.slice(13));
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
/** Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits, read as 0/1/2): the letter of the number mod 23. */
export function dni(number: string, letter: string): boolean {
  const n = number.toUpperCase().replace(/^[XYZ]/, (c) => String("XYZ".indexOf(c)));
  return n.length === 8 && DNI_LETTERS[Number(n) % 23] === letter.toUpperCase();
}

const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
/** Italian codice fiscale: the check letter from odd/even position values of the first fifteen characters. */
export function codiceFiscale(code: string): boolean {
  const s = code.toUpperCase();
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = s.charCodeAt(i);
    const v = c <= 57 ? c - 48 : c - 65;
    sum += i % 2 === 0 ? (CF_ODD[v] as number) : v;
  }
  return s.charCodeAt(15) - 65 === sum % 26;
}

/** Dutch BSN: 9·d1 + 8·d2 + … + 2·d8 − d9 is a multiple of 11 (the "11-proof"), not all zeros. */
export function bsn(d: string): boolean {
  if (d.length !== 9 || /^0+$/.test(d)) return false;
  const ds = nums(d);
  return (weighted(ds.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]) - (ds[8] as number)) % 11 === 0;
}

/** Singapore NRIC/FIN (S, T, F, G): weights 2 7 6 5 4 3 2, +4 for T and G, letter from the series table. */
export function nric(code: string): boolean {
  const s = code.toUpperCase();
  const lead = s[0] as string;
  const sum = weighted(nums(s.slice(1, 8)), [2, 7, 6, 5, 4, 3, 2]) + (lead === "T" || lead === "G" ? 4 : 0);
  const table = lead === "S" || lead === "T" ? "JZIHGFEDCBA" : "XWUTRQPNMLK";
  return table[sum % 11] === s[8];
}

/** Japanese My Number: check digit from weights 2…7, 2…6 over the eleven digits from the right; 0 when Σ mod 11 ≤ 1. */
export function myNumber(d: string): boolean {
  if (d.length !== 12) return false;
  const rev = nums(d.slice(0, 11)).reverse();
  const rest = rev.reduce((s, x, i) => s + x * (i < 6 ? i + 2 : i - 4), 0) % 11;
  return (rest <= 1 ? 0 : 11 - rest) === nums(d)[11];
}

/** UK NHS number: weights 10…2 over nine digits, check 11 − (Σ mod 11), 11 → 0, 10 invalid. */
export function nhs(d: string): boolean {
  if (d.length !== 10) return false;
  const ds = nums(d);
  const check = 11 - (weighted(ds.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return check !== 10 && (check === 11 ? 0 : check) === ds[9];
}

/** Australian TFN: weights 1 4 3 7 5 8 6 9 10, the sum a multiple of 11. */
export const tfn = (d: string) => d.length === 9 && weighted(nums(d), [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0;

/** Australian Medicare: first digit 2–6, ninth digit (Σ of 1 3 7 9 1 3 7 9 weights mod 10), issue number not 0. */
export const medicare = (d: string) =>
  d.length >= 10 &&
  /^[2-6]/.test(d) &&
  weighted(nums(d.slice(0, 8)), [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === nums(d)[8] &&
  d[9] !== "0";

/** Canadian SIN: Luhn, first digit not 0 or 8. */
export const sin = (d: string) => d.length === 9 && d[0] !== "0" && d[0] !== "8" && luhn(d);

/** UK NINO prefix rules: no D F I Q U V, no O second, not BG GB KN NK NT TN ZZ. */
export const ninoPrefix = (p: string) =>
  /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]$/.test(p) && !["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].includes(p);
