// The guard's own labelled corpus (fixed seed): personal data, quasi-identifiers and secrets in many carriers, and benign look-alikes.
import { seededRandom } from "../seeded-random";
import { BENIGN, BENIGN_CARRIERS } from "./benign";
import { CARRIERS, type Carrier, carry, recase } from "./carriers";
import { NATIONAL_IDS, QUASI } from "./personal";
import { SECRETS } from "./secrets";

export type CorpusItem = {
  /** "national_id.uk_nino", "quasi.dob", "secret.azure", "benign.sops", … */
  category: string;
  /** true when the guard must refuse the text */
  refuse: boolean;
  carrier: Carrier | "own";
  text: string;
};

export const CORPUS_SEED = 20261127;
export const PER_POSITIVE_CATEGORY = 110;
export const PER_BENIGN_CATEGORY = 90;
/** Exact documented strings: changing their case would make them something else. */
const KEEP_CASE = new Set([
  "benign.stripe_docs",
  "benign.jwt_spec",
  "benign.age_pgp",
  "benign.sops",
  "benign.aws_example",
]);

/** Every item of the corpus, the same on every call (one seeded generator, a fixed order of categories). */
export function guardCorpus(seed = CORPUS_SEED): CorpusItem[] {
  const r = seededRandom(seed);
  const out: CorpusItem[] = [];
  const add = (category: string, refuse: boolean, carrier: Carrier | "own", text: string) =>
    out.push({ category, refuse, carrier, text: KEEP_CASE.has(category) ? text : recase(r, text) });
  const personal = [
    ...Object.entries(NATIONAL_IDS).map(([k, make]) => [`national_id.${k}`, make] as const),
    ...Object.entries(QUASI).map(([k, make]) => [`quasi.${k}`, make] as const),
  ];
  for (const [category, make] of personal) {
    for (let i = 0; i < PER_POSITIVE_CATEGORY; i++) {
      const carrier = CARRIERS[i % CARRIERS.length] as Carrier;
      const { label, value } = make(r);
      add(category, true, carrier, carry(r, carrier, label, value));
    }
  }
  for (const [k, make] of Object.entries(SECRETS)) {
    for (let i = 0; i < PER_POSITIVE_CATEGORY; i++) {
      const carrier = CARRIERS[i % CARRIERS.length] as Carrier;
      add(`secret.${k}`, true, k === "generic" ? carrier : "own", make(r, carrier));
    }
  }
  for (const [k, make] of Object.entries(BENIGN)) {
    for (let i = 0; i < PER_BENIGN_CATEGORY; i++) {
      const carrier = BENIGN_CARRIERS[i % BENIGN_CARRIERS.length] as Carrier;
      add(`benign.${k}`, false, carrier, make(r, carrier));
    }
  }
  return out;
}
