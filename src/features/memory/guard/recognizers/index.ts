// The recognizers of the write guard as guard rules: national identifiers, quasi-identifiers, secrets beyond known prefixes.
import type { Rule } from "../rules";
import { SECRET_RECOGNIZERS } from "./cloud-secrets";
import { NATIONAL_ID_RECOGNIZERS } from "./national-ids";
import { QUASI_RECOGNIZERS } from "./quasi";
import { recognizerRule } from "./recognizer";

export { maskKnownBenign } from "./allowlist";

export const RECOGNIZER_RULES: Rule[] = [...NATIONAL_ID_RECOGNIZERS, ...QUASI_RECOGNIZERS, ...SECRET_RECOGNIZERS].map(
  recognizerRule,
);
