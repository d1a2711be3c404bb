// Known false positives the guard accepts: documented example keys (AWS, Stripe, JWT), and encrypted or public armour blocks, masked before any rule runs.

/** Stripe's documentation keys and the JWT examples of jwt.io and RFC 7519: published, granting nothing. */
const DOCUMENTED = [
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "pk_test_TYooMQauvdEDq54NiTphI7jx",
  "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
  "pk_test_6pRNASCoBOKtIshFeQd4XMUh",
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
];
/** AWS documents its example credentials with an EXAMPLE / EXAMPLEKEY suffix, which no issued key has. */
const AWS_EXAMPLES = [
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{8,12}EXAMPLE(?![A-Za-z0-9])/gi,
  /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{20,36}EXAMPLEKEY(?![A-Za-z0-9/+=])/gi,
];
/** Armour of encrypted messages and public keys (never private keys): ciphertext and public data, nothing to redact. */
const ARMOUR_TYPES = ["AGE ENCRYPTED FILE", "PGP MESSAGE", "PGP PUBLIC KEY BLOCK", "PGP SIGNATURE", "SSH SIGNATURE"];
const ARMOUR_BODY = /^[A-Za-z0-9+/=\s]*$/;
const ARMOUR_HEADER = /^[A-Za-z-]{1,32}: [^\n]{0,200}$/;

/** Removes armoured blocks of the types above whose body is base64 (header lines allowed), found with indexOf. */
function maskArmour(text: string): string {
  let out = text;
  for (const type of ARMOUR_TYPES) {
    const begin = `-----BEGIN ${type}-----`;
    const end = `-----END ${type}-----`;
    let from = out.indexOf(begin);
    while (from !== -1) {
      const to = out.indexOf(end, from + begin.length);
      if (to === -1) break;
      const lines = out.slice(from + begin.length, to).split("\n");
      const body = lines.filter((l) => !ARMOUR_HEADER.test(l.trim())).join("\n");
      if (ARMOUR_BODY.test(body)) out = `${out.slice(0, from)}[${type.toLowerCase()}]${out.slice(to + end.length)}`;
      from = out.indexOf(begin, from + 1);
    }
  }
  return out;
}

/** The text with documented example credentials and encrypted/public armour replaced by a neutral word. */
export function maskKnownBenign(text: string): string {
  let out = text.includes("-----BEGIN ") ? maskArmour(text) : text;
  for (const example of DOCUMENTED) if (out.includes(example)) out = out.split(example).join("example");
  if (/example/i.test(out)) for (const re of AWS_EXAMPLES) out = out.replace(re, "example");
  return out;
}
