// Hand-written detection rules of the write guard: secret families secretlint lacks (or as a second net), PII, raw URLs.

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
const reWhere = (id: string, family: Family, pattern: RegExp, accept: (m: RegExpExecArray) => boolean): Rule => ({
  id,
  family,
  test: (t) => {
    const g = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
    for (let m = g.exec(t); m; m = g.exec(t)) {
      if (accept(m)) return true;
      if (m[0].length === 0) g.lastIndex++;
    }
    return false;
  },
});

// ---- secrets ---------------------------------------------------------------------------------

/** Values that stand for a secret without being one (redacted placeholders, env references). */
const PLACEHOLDER =
  /^(?:\*+|x{3,}|•+|\.{3,}|<[^>]*>|\[[^\]]*\]|\{\{?[^}]*\}\}?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|redacted|masked|hidden|removed|none|null|nil|empty|unset|undefined|true|false|yes|no|required|missing|invalid|expired|rotated|revoked|omitted|n\/a)$/i;

const SECRET_KEY =
  "(?:[A-Za-z0-9]+[_.-])*(?:password|passwd|passphrase|pwd|pass|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?key|private[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|bearer[_-]?token|session[_-]?token|token|credentials?|signing[_-]?key|account[_-]?key|sas[_-]?token)";

const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9])${SECRET_KEY}["']?\\s*(=>|:=|=|:)(\\s*)(["']?)([^\\s"',;&)}\\]]{4,})`,
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
    /aws.{0,20}?(?:secret|key).{0,20}?[=:]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
  ),
  re(
    "secret.github_token",
    "secret",
    /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
  ),
  re("secret.gitlab_token", "secret", /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g),
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
    /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d|"private_key"\s*:\s*"-----/g,
  ),
  re(
    "secret.basic_auth",
    "secret",
    /(?:authorization\s*[:=]\s*)?\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=])|[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/gi,
  ),
  re("secret.bearer_token", "secret", /\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*/gi),
  re(
    "secret.connection_string",
    "secret",
    /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|jdbc:[a-z0-9]+):\/\/|\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)\s*=\s*[A-Za-z0-9+/=%]{16,}|\b(?:Server|Data Source|Host)\s*=[^;\n]{1,200};[^\n]{0,200}?\b(?:Password|Pwd)\s*=/gi,
  ),
  reWhere("secret.generic_assignment", "secret", ASSIGNMENT, secretLikeAssignment),
];

// ---- PII ------------------------------------------------------------------------------------

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card brands' issuer prefixes and lengths (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
function cardBrand(d: string): boolean {
  const n = d.length;
  if (/^4/.test(d)) return n === 13 || n === 16 || n === 19;
  if (/^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/.test(d)) return n === 16;
  if (/^3[47]/.test(d)) return n === 15;
  if (/^(?:6011|65|64[4-9])/.test(d)) return n >= 16 && n <= 19;
  if (/^35(?:2[89]|[3-8]\d)/.test(d)) return n >= 16 && n <= 19;
  if (/^3(?:0[0-5]|[689])/.test(d)) return n >= 14 && n <= 19;
  if (/^62/.test(d)) return n >= 16 && n <= 19;
  if (/^(?:50|5[6-9]|6\d)/.test(d)) return n >= 12 && n <= 19;
  return false;
}

const digitsOnly = (s: string) => s.replace(/\D/g, "");

export const PII_RULES: Rule[] = [
  re("pii.email", "pii", /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g),
  reWhere("pii.card_number", "pii", /(?<![\w.-])\d(?:[ -]?\d){11,18}(?![\w-]|\.\d)/g, (m) => {
    const d = digitsOnly(m[0]);
    return d.length >= 12 && d.length <= 19 && cardBrand(d) && luhn(d);
  }),
  re(
    "pii.ssn",
    "pii",
    /(?<![\w.-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w-]|\.\d)|\b(?:ssn|social security(?: number)?)\W{0,3}\d{9}\b/gi,
  ),
  reWhere(
    "pii.phone",
    "pii",
    /(?<![\w.+/-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\d{2,4}[\s.-])\d{3,4}[\s.-]\d{3,4}(?![\w-]|[.:/]\d)|(?<![\w.+/-])\+\d{8,15}(?![\w-]|\.\d)/g,
    (m) => {
      const s = m[0];
      const d = digitsOnly(s);
      if (d.length < 10 || d.length > 15) return false;
      if (s.startsWith("+") || s.startsWith("(")) return true;
      // without a + or (area), only the NANP shape 3-3-4 with one consistent separator
      return /^\d{3}([\s.-])\d{3}\1\d{4}$/.test(s);
    },
  ),
];

// ---- raw URLs -------------------------------------------------------------------------------

const TLD = "(?:com|net|org|io|dev|app|co|ai|gov|edu|info|biz|me|us|uk|de|fr|cloud|xyz|site|tech|sh|ly|gg|to)";

export const URL_RULES: Rule[] = [
  re("url.raw", "url", /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s<>"'`]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+|\bmailto:[^\s]+/gi),
  // host.tld/path — but not a container image reference (registry/repo:tag), which names an artifact, not a page
  reWhere(
    "url.bare_domain",
    "url",
    new RegExp(`(?<![\\w@./-])(?:[a-z0-9-]+\\.)+${TLD}(?::\\d{2,5})?\\/[^\\s]*`, "gi"),
    (m) => !/^[^/\s]+\/[\w./-]+(?::[\w.-]+|@sha256:[0-9a-f]{64})$/.test(m[0]) || /[?#=&]/.test(m[0]),
  ),
];

export const ALL_RULES: Rule[] = [...SECRET_RULES, ...PII_RULES, ...URL_RULES];
