// Recognizers of secrets without a known prefix: a credential word near a secret-looking value, passwords in prose, Azure SAS tokens and client secrets, GCP service-account keys, kubeconfig credentials.
import { entropy, PLACEHOLDER, secretLike } from "../detectors";
import { contextSource, patternsOf, type Recognizer } from "./recognizer";

const ctx = (words: string[]) => new RegExp(contextSource(words), "i");

/** Credential words (and their field-key spellings, since the context window reads "_" and "-" as spaces). */
export const CREDENTIAL_WORDS = [
  "passwords?",
  "passwd",
  "passphrase",
  "pass ?code",
  "pwd",
  "pw",
  "secret(?: key| access key)?",
  "client ?secret",
  "token(?!s)",
  "access token",
  "auth token",
  "refresh token",
  "api ?key",
  "access key",
  "private key",
  "credentials?",
  "mot de passe",
  "passwort",
  "kennwort",
  "contrase[ñn]a",
  "senha",
];

/** A pattern that is decisive on its own (a key format nothing else has). */
const decisive = (id: string, pattern: RegExp): Recognizer => ({
  id,
  family: "secret",
  pattern,
  validate: () => true,
  strong: true,
});

/** A value that can hold a secret: starts after a space, quote, "=", "(", "|" or ">" and ends before one. */
const TOKEN = /(?<![^\s"'`=(|>])[A-Za-z0-9_~+/.!@#$%^&*?-]{10,128}={0,2}(?=[\s"'`,;)|<]|$)/g;
/**
 * "the password for the staging box is …", "pw for grafana -> …", "login for X: admin / …", "password for X\n…"; the
 * keyword is a word of its own, not the end of a name (`DB_PASSWORD`, `secrets.password`, `$PASSWORD`).
 */
const PASSWORD_FOR =
  /(?<![\w.$-])(?:password|passphrase|passwd|pw|pwd|passcode|login|credentials?)(?: [^\s:=]{1,30}){0,10}?[ \t]{0,3}(?:(?:is|was|are)(?![A-Za-z])|:|->|=>|=|→|\r?\n)[ \t]{0,3}(?:[A-Za-z0-9_.-]{1,30}[ \t]{0,2}\/[ \t]{0,2})?["'`]?([^\s"'`\u2063]{6,64})/gi;
/** "use … as the password for X", "… is the current password for X" */
const PASSWORD_AFTER =
  /(?<![^\s"'`])([^\s"'`]{6,64})["'`]? (?:is|was|as) (?:the|our|my|your) (?:(?:new|current|old|admin|root|shared) )?(?:password|passphrase|pw|passcode)(?![A-Za-z0-9])/gi;

const NAMES_A_CREDENTIAL = new RegExp(CREDENTIAL_WORDS.join("|"), "i");
const CREDENTIAL_CONTEXT = ctx(CREDENTIAL_WORDS);
/** The value without the sentence punctuation after it (a loop: a `[.,;:!?]+$` regex is quadratic on a long run). */
function withoutTrailingPunctuation(value: string): string {
  let end = value.length;
  while (end > 0 && ".,;:!?".includes(value[end - 1] as string)) end--;
  return value.slice(0, end);
}

/**
 * A value next to a credential word that is the secret itself: secret-looking, with a digit (or ≥ 20 characters at
 * ≥ 3.5 bits each), and not a name that spells a credential word (`secrets.DB_PASSWORD`, `SEE1PASSWORDENTRY`).
 */
function contextualSecret(value: string): boolean {
  if (PLACEHOLDER.test(value) || !secretLike(value) || NAMES_A_CREDENTIAL.test(value)) return false;
  // ids that sit next to "token" in logs: UUIDs, short hex (trace ids), host and pod names (`checkout-71dc97d91-727vc`)
  const id = withoutTrailingPunctuation(value);
  if (/^(?:sha(?:1|224|256|384|512)|md5)[-:]/i.test(id)) return false; // a content digest (SRI, OCI)
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return false;
  if (/^[0-9a-f]{1,19}$/i.test(id)) return false;
  if (/^age1[02-9ac-hj-np-z]{58}$/.test(id)) return false; // an age recipient: a public key
  if (/^[a-z0-9]+(?:[-.][a-z0-9]+)+$/.test(id) && /(?:^|[-.])[a-z]{4,}(?:[-.]|$)/.test(id)) return false;
  return /\d/.test(value) || (value.length >= 20 && entropy(value) >= 3.5);
}

/** A key assigned the value right before it (`etag = "`, `"id": `): that key alone is the value's context. */
const ASSIGNED_BY = /((?:[\w.-]{1,40} )?[\w.-]{1,40})["']?[ \t]{0,3}(?:=|:)[ \t]{0,3}["']?[ \t]?$/;
/**
 * The value's own context: its line (the line above when the value opens its line; in a markdown table row, the rows
 * above it: the header), and when a key is
 * assigned the value, that key alone, so "secret_key = …" on one line never lends its word to "etag = …" on the next.
 */
function ownContext(around: string): string {
  const lines = around.split("\n");
  const own = lines[lines.length - 1] as string;
  // a value alone on its line reads the label line above it ("password:\n<value>")
  const line = own.trim() === "" && lines.length > 1 ? (lines[lines.length - 2] as string) : own;
  const head = own.trimStart().startsWith("|") ? around : line;
  return head.match(ASSIGNED_BY)?.[1] ?? head;
}

/** The value is a secret: not a placeholder as written (`[default]`, `{{ … }}`) and secret-looking. */
const announced = (m: RegExpExecArray) => !PLACEHOLDER.test(m[1] as string) && secretLike(m[1] as string);
/**
 * As announced, when the words between the keyword and the value stay in one sentence ("… too short. [default]⏎" is
 * two) and the value is not a snake_case name (`aws_access_key_id`).
 */
const announcedInOneSentence = (m: RegExpExecArray) => {
  const value = m[1] as string;
  const phrase = m[0].slice(0, m[0].length - value.length);
  return announced(m) && !/[.!?;](?:[ \t]|\r?\n)/.test(phrase) && !/^[a-z]+(?:_[a-z]+)+$/.test(value);
};

export const SECRET_RECOGNIZERS: Recognizer[] = [
  {
    id: "secret.credential_in_prose",
    family: "secret",
    pattern: PASSWORD_FOR,
    validate: announcedInOneSentence,
    strong: true,
  },
  { id: "secret.credential_in_prose", family: "secret", pattern: PASSWORD_AFTER, validate: announced, strong: true },
  {
    // gitleaks' generic rule: a secret-looking value (≥ 10 characters) with a credential word just before it
    id: "secret.credential_context",
    family: "secret",
    pattern: TOKEN,
    validate: (m) => contextualSecret(m[0]),
    narrow: ownContext,
    context: CREDENTIAL_CONTEXT,
    window: [48, 0],
  },
  // Azure: a SAS signature (sig=, url-encoded base64 of an HMAC-SHA256), an Entra ID client secret (3 chars, digit, "Q~")
  decisive(
    "secret.azure_sas",
    /(?<![A-Za-z0-9])sig=(?:[A-Za-z0-9+/]|%2[bBfF]){30,90}(?:=|%3[dD]){0,2}(?![A-Za-z0-9%])/gi,
  ),
  decisive(
    "secret.azure_client_secret",
    /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  ),
  // GCP service-account key files name the key by its 40-hex id; the body may be elsewhere or split over lines
  decisive("secret.gcp_service_account", /"private_key_id"[ \t]{0,4}:[ \t]{0,4}"[0-9a-f]{40}"/gi),
  decisive("secret.gcp_service_account", /"private_key"[ \t]{0,4}:\s{0,8}"-----BEGIN/gi),
  // kubeconfig users: key data, OpenShift tokens, bootstrap tokens, OIDC tokens
  decisive("secret.kubeconfig", /(?<![A-Za-z0-9-])client-key-data[ \t]{0,4}:[ \t]{0,4}[A-Za-z0-9+/]{20}/gi),
  decisive("secret.kubeconfig", /(?<![A-Za-z0-9])sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/gi),
  {
    id: "secret.kubeconfig",
    family: "secret",
    pattern: /(?<![A-Za-z0-9])[a-z0-9]{6}\.[a-z0-9]{16}(?![A-Za-z0-9])/gi,
    validate: (m) => /\d/.test(m[0]),
    context: ctx(["token", "bootstrap", "kubeadm"]),
  },
  {
    id: "secret.kubeconfig",
    family: "secret",
    pattern:
      /(?<![A-Za-z0-9-])(?:id-token|refresh-token|token)["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([A-Za-z0-9._~+/=-]{16,512})/gi,
    validate: announced,
    strong: true,
  },
];

/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = [...patternsOf(SECRET_RECOGNIZERS), NAMES_A_CREDENTIAL];
