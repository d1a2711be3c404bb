// Hand-written detection rules of the write guard: secret families secretlint lacks (or as a second net), PII, raw URLs.
import {
  hasAnnouncedSecret,
  hasCardNumber,
  hasIban,
  hasPhone,
  hasPrivateKeyBody,
  hasSsn,
  PLACEHOLDER,
} from "./detectors";

export type Family = "secret" | "pii" | "url";
export type Rule = { id: string; family: Family; test: (text: string) => boolean };

const re = (id: string, family: Family, pattern: RegExp): Rule => ({
  id,
  family,
  test: (t) => {
    pattern.lastIndex = 0;
    return pattern.test(t);
  },
});

/** Runs `pattern` globally and accepts the first match that `accept` approves. */
const reWhere = (id: string, family: Family, pattern: RegExp, accept: (m: RegExpExecArray) => boolean): Rule => {
  // compiled once; test() is synchronous, so one global instance with lastIndex reset per call is safe
  const g = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return {
    id,
    family,
    test: (t) => {
      g.lastIndex = 0;
      for (let m = g.exec(t); m; m = g.exec(t)) {
        if (accept(m)) return true;
        if (m[0].length === 0) g.lastIndex++;
      }
      return false;
    },
  };
};

// ---- secrets ---------------------------------------------------------------------------------

const SECRET_KEY =
  "(?:[A-Za-z0-9]{1,40}[_.-]){0,6}(?:password|passwd|passphrase|pwd|pass|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?key|private[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|bearer[_-]?token|session[_-]?token|token|credentials?|signing[_-]?key|account[_-]?key|sas[_-]?token)";

// not after ":" or "/": a segment of an ARN or path (`arn:aws:secretsmanager:…:secret:prod/db-AbC123`)
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9:/_.-])${SECRET_KEY}["']?[ \\t]{0,8}(=>|:=|=|:)([ \\t]{0,8})(["']?)([^\\s"',;&)}\\]]{4,})`,
  "gi",
);

function secretLikeAssignment(m: RegExpExecArray): boolean {
  const [, sep, space, quote, value] = m as unknown as [string, string, string, string, string];
  if (PLACEHOLDER.test(value)) return false;
  if (/^\/[\w./-]*$/.test(value)) return false; // a path (pwd=/srv/app)
  if (sep === ":" && space.length > 0 && quote === "") {
    // prose ("password: rotated yesterday") vs a value: require something a plain word would not have
    return value.length >= 8 && (/\d/.test(value) || /[^A-Za-z]/.test(value) || /[A-Z]/.test(value.slice(1)));
  }
  return true;
}

export const SECRET_RULES: Rule[] = [
  re(
    "secret.aws_access_key_id",
    "secret",
    /(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Z0-9])/g,
  ),
  re(
    "secret.aws_secret_access_key",
    "secret",
    /(?:aws.{0,20}?(?:secret|key)|secret[_ -]?access[_ -]?key).{0,20}?(?:=>|[=:]|\bis\b)[ \t]{0,8}["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
  ),
  re(
    "secret.github_token",
    "secret",
    /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
  ),
  // "glpat" without its hyphen: a key split by hyphens and joined back loses it
  re("secret.gitlab_token", "secret", /(?<![A-Za-z0-9])glpat-?[A-Za-z0-9_-]{20,}/g),
  // Warden's own API keys: `wdn_live_`/`wdn_test_` + ≥ 20 key characters (checksummed format), legacy `wk_<12 hex>_<43>`
  re(
    "secret.warden_api_key",
    "secret",
    /(?<![A-Za-z0-9])(?:wdn_(?:live|test)_[A-Za-z0-9_-]{20,}|wk_[0-9a-f]{12}_[A-Za-z0-9_-]{43})/g,
  ),
  re(
    "secret.slack_token",
    "secret",
    /(?<![A-Za-z0-9])(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+)/g,
  ),
  re(
    "secret.stripe_key",
    "secret",
    /(?<![A-Za-z0-9])(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})/g,
  ),
  re("secret.anthropic_key", "secret", /(?<![A-Za-z0-9])sk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{20,}/g),
  re("secret.openai_key", "secret", /(?<![A-Za-z0-9-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,}/g),
  re("secret.google_api_key", "secret", /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g),
  re("secret.npm_token", "secret", /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}/g),
  re("secret.huggingface_token", "secret", /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g),
  re("secret.sendgrid_key", "secret", /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g),
  re("secret.jwt", "secret", /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g),
  re(
    "secret.private_key",
    "secret",
    /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d|"private_key"[ \t]{0,8}:[ \t]{0,8}"-----/g,
  ),
  // mangled armor: wrong dash count, spaces, lower case, or the dashes gone (upper case then)
  {
    id: "secret.private_key",
    family: "secret",
    test: (t) =>
      /(?<!-)-{2,}\s{0,8}begin\b[ a-z0-9]{0,20}private\s{1,8}key/i.test(t) ||
      /\bBEGIN [A-Z0-9 ]{0,20}PRIVATE KEY\b/.test(t),
  },
  { id: "secret.private_key_body", family: "secret", test: hasPrivateKeyBody },
  { id: "secret.announced", family: "secret", test: hasAnnouncedSecret },
  re(
    "secret.basic_auth",
    "secret",
    /\bbasic[ \t]{1,8}[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=])|(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{1,256}:[^\s/@]{1,256}@/gi,
  ),
  re("secret.bearer_token", "secret", /\bbearer[ \t]{1,8}[A-Za-z0-9._~+/-]{20,}/gi),
  re(
    "secret.connection_string",
    "secret",
    /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|jdbc:[a-z0-9]+):\/\/|\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)[ \t]{0,8}=[ \t]{0,8}[A-Za-z0-9+/=%]{16,}|\b(?:Server|Data Source|Host)[ \t]{0,8}=[^;\n]{1,200};[^\n]{0,200}?\b(?:Password|Pwd)[ \t]{0,8}=/gi,
  ),
  reWhere("secret.generic_assignment", "secret", ASSIGNMENT, secretLikeAssignment),
];

// ---- PII ------------------------------------------------------------------------------------

export const PII_RULES: Rule[] = [
  re(
    "pii.email",
    "pii",
    /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
  ),
  { id: "pii.card_number", family: "pii", test: hasCardNumber },
  { id: "pii.ssn", family: "pii", test: hasSsn },
  { id: "pii.iban", family: "pii", test: hasIban },
  { id: "pii.phone", family: "pii", test: hasPhone },
];

// ---- raw URLs -------------------------------------------------------------------------------

const TLD = "(?:com|net|org|io|dev|app|co|ai|gov|edu|info|biz|me|us|uk|de|fr|cloud|xyz|site|tech|sh|ly|gg|to)";

const BARE_DOMAIN_PATH = new RegExp(`(?<![\\w@./-])(?:[a-z0-9-]{1,63}\\.){1,8}${TLD}(?::\\d{2,5})?\\/[^\\s]*`, "gi");

export const URL_RULES: Rule[] = [
  re(
    "url.raw",
    "url",
    /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,20}:\/\/[^\s<>"'`]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+|\bmailto:[^\s]+/gi,
  ),
  // host.tld/path — but not a container image reference (registry/repo:tag), which names an artifact, not a page
  reWhere(
    "url.bare_domain",
    "url",
    BARE_DOMAIN_PATH,
    (m) => !/^[^/\s]+\/[\w./-]+(?::[\w.-]+|@sha256:[0-9a-f]{64})$/.test(m[0]) || /[?#=&]/.test(m[0]),
  ),
];

export const ALL_RULES: Rule[] = [...SECRET_RULES, ...PII_RULES, ...URL_RULES];

/** The regexes this file builds at run time, for the ReDoS check (scripts/redos-check.mts). */
export const DYNAMIC_PATTERNS = [ASSIGNMENT, BARE_DOMAIN_PATH];
