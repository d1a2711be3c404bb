// Carriers a value travels in when an agent pastes it into a note: prose, log line, JSON, YAML, markdown table, stack trace, code, URL, split lines.
import { pick, type Rand } from "./identifiers";

export type Carrier = "prose" | "log" | "json" | "yaml" | "table" | "stack" | "code" | "url" | "split" | "env";

export const CARRIERS: Carrier[] = ["prose", "log", "json", "yaml", "table", "stack", "code", "url", "split", "env"];

/** A label ("NI number") as a field key ("ni_number"). */
export const keyOf = (label: string) =>
  label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

const SUBJECTS = [
  "the customer",
  "the patient",
  "the new hire",
  "the account holder",
  "the caller",
  "the applicant",
  "the contractor",
];
const PROSE_BEFORE = [
  "While debugging the onboarding flow we saw {S}'s {L} {V} in the request body.",
  "{S} gave their {L} as {V} on the support call; ticket escalated to tier 2.",
  "Note for the incident review: {L} {V} was printed by the import job.",
  "Retry succeeded after we corrected {S}'s {L}: {V}.",
  "The form rejected the {L} ({V}) because the field was too short.",
];
const LOG_LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"];
const SERVICES = ["kyc-worker", "billing-api", "onboarding", "hr-sync", "claims-etl", "crm-export"];

function stamp(r: Rand): string {
  const d = (n: number) => String(n).padStart(2, "0");
  return `2026-${d(1 + Math.floor(r() * 12))}-${d(1 + Math.floor(r() * 28))}T${d(Math.floor(r() * 24))}:${d(Math.floor(r() * 60))}:${d(Math.floor(r() * 60))}Z`;
}

/** `label`: the context a writer gives the value (may be ""); `value`: the value as written. */
export function carry(r: Rand, carrier: Carrier, label: string, value: string): string {
  const L = label || "value";
  // a label without ASCII letters ("マイナンバー") stays the key as written
  const k = keyOf(L) || L;
  switch (carrier) {
    case "prose":
      return pick(r, PROSE_BEFORE).replace("{S}", pick(r, SUBJECTS)).replace("{L}", L).replace("{V}", value);
    case "log":
      return `${stamp(r)} ${pick(r, LOG_LEVELS)} ${pick(r, SERVICES)}: validation failed ${k}=${value} attempt=2`;
    case "json":
      return `payload was {"id": ${Math.floor(r() * 9000) + 1000}, "${k}": "${value}", "status": "pending"}`;
    case "yaml":
      return `applicant:\n  name: redacted\n  ${k}: "${value}"\n  verified: false`;
    case "table":
      return `| name | ${L} | status |\n|---|---|---|\n| J. Doe | ${value} | pending |`;
    case "stack":
      return `ValidationError: invalid ${L} '${value}'\n    at validate${pick(r, ["Form", "Record", "Row"])} (src/forms/check.ts:${Math.floor(r() * 300) + 1}:9)`;
    case "code":
      return `const ${k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())} = "${value}"; // ${L} from the fixture`;
    case "url":
      return `callback hit https://forms.internal.example/submit?${k}=${encodeURIComponent(value)}&step=3`;
    case "split":
      return `${L}:\n${value}\n(copied from the form)`;
    case "env":
      return `${k.toUpperCase()}=${value}`;
  }
}

/** Letter-case variants of a text: as given, upper case, lower case. */
export function recase(r: Rand, text: string): string {
  const x = r();
  return x < 0.7 ? text : x < 0.85 ? text.toUpperCase() : text.toLowerCase();
}
