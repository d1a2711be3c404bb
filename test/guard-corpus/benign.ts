// Benign look-alikes of the guard corpus: documented example keys, placeholders, hashes and ids, encrypted values, versions, timestamps, bare dates, numbers and places.
import { type Carrier, carry } from "./carriers";
import { digits, int, pick, type Rand } from "./identifiers";
import { dateText } from "./personal";
import { chars } from "./secrets";

const HEX = "0123456789abcdef";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const uuid = (r: Rand) =>
  `${chars(r, HEX, 8)}-${chars(r, HEX, 4)}-4${chars(r, HEX, 3)}-${pick(r, ["8", "9", "a", "b"])}${chars(r, HEX, 3)}-${chars(r, HEX, 12)}`;

/** A benign maker: the text of one note (carrier chosen by the maker where it matters). */
export type BenignMaker = (r: Rand, carrier: Carrier) => string;

/** Carriers a benign note can travel in (a URL is refused by the guard whatever it holds). */
export const BENIGN_CARRIERS: Carrier[] = ["prose", "log", "json", "yaml", "table", "stack", "code", "split", "env"];

export const BENIGN: Record<string, BenignMaker> = {
  aws_example: (r) =>
    pick(r, [
      "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "The docs use AKIAIOSFODNN7EXAMPLE as the access key id in every CLI example.",
      "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY # from the AWS guide",
      "aws_access_key_id: AKIAI44QH8DHBEXAMPLE\naws_secret_access_key: je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
      `test fixture sets ${pick(r, ["AWS_ACCESS_KEY_ID", "accessKeyId"])}="AKIAIOSFODNN7EXAMPLE"`,
    ]),
  stripe_docs: (r) =>
    pick(r, [
      "curl examples in the Stripe docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc as the key",
      'const stripe = new Stripe("sk_test_4eC39HqLyjWDarjtT1zdp7dc"); // documentation key',
      "publishable test key from the Stripe guide: pk_test_TYooMQauvdEDq54NiTphI7jx",
      "STRIPE_SECRET_KEY=sk_test_BQokikJOvBiI2HlWgH4olfQ2",
    ]),
  jwt_spec: (r) =>
    pick(r, [
      "the jwt.io sample token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c decodes to John Doe",
      "test uses the RFC 7519 example header eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9 only",
    ]),
  placeholder: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["password", "api key", "token", "client secret", "db_password", "secret"]),
      pick(r, [
        "<your-token>",
        "xxxx",
        "xxxxxxxxxxxx",
        "changeme",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal env placeholder
        "${TOKEN}",
        "$API_KEY",
        "YOUR_API_KEY",
        "<redacted>",
        "***",
        "REPLACE_ME",
        "{{ secrets.DB_PASSWORD }}",
        "<password>",
        "your-secret-here",
        "example",
        "dummy",
        "placeholder",
      ]),
    ),
  git_sha: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["commit", "sha", "revision", "head"]),
      pick(r, [chars(r, HEX, 40), chars(r, HEX, 7), chars(r, HEX, 12)]),
    ),
  uuid: (r, carrier) => carry(r, carrier, pick(r, ["run id", "request_id", "trace", "session"]), uuid(r)),
  digest: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["digest", "checksum", "etag", "content hash"]),
      pick(r, [
        `sha256:${chars(r, HEX, 64)}`,
        chars(r, HEX, 64),
        `md5 ${chars(r, HEX, 32)}`,
        `sha512-${chars(r, B64, 86)}==`,
      ]),
    ),
  sops: (r) => {
    const enc = `ENC[AES256_GCM,data:${chars(r, B64, int(r, 12, 40))}=,iv:${chars(r, B64, 43)}=,tag:${chars(r, B64, 22)}==,type:str]`;
    return pick(r, [
      `db:\n  password: ${enc}\n  user: app`,
      `DB_PASSWORD=${enc}`,
      `{"api_key": "${enc}"}`,
      `sops kept the token as ${enc}`,
    ]);
  },
  age_pgp: (r) => {
    const lines = Array.from({ length: 3 }, () => chars(r, B64, 64)).join("\n");
    const ageHeader = btoa(`age-encryption.org/v1\n-> X25519 ${chars(r, B64, 43)}\n`);
    return pick(r, [
      `-----BEGIN PGP MESSAGE-----\n\nhQEMA${lines}\n=${chars(r, B64, 4)}\n-----END PGP MESSAGE-----`,
      `-----BEGIN AGE ENCRYPTED FILE-----\n${ageHeader}\n${lines}\n-----END AGE ENCRYPTED FILE-----`,
      `recipient: age1${chars(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)}`,
      `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINB${lines}\n-----END PGP PUBLIC KEY BLOCK-----`,
    ]);
  },
  version: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["version", "image tag", "node", "chart"]),
      pick(r, [
        `${int(r, 0, 20)}.${int(r, 0, 40)}.${int(r, 0, 99)}`,
        `v${int(r, 1, 9)}.${int(r, 0, 20)}.${int(r, 0, 9)}-rc.${int(r, 1, 5)}`,
        `${int(r, 2019, 2026)}.${int(r, 1, 12)}.${int(r, 1, 30)}`,
      ]),
    ),
  timestamp: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["started_at", "deployed", "last seen", "timestamp"]),
      pick(r, [
        `2026-${String(int(r, 1, 12)).padStart(2, "0")}-${String(int(r, 1, 28)).padStart(2, "0")}T${String(int(r, 0, 23)).padStart(2, "0")}:${String(int(r, 0, 59)).padStart(2, "0")}:00Z`,
        String(int(r, 1700000000, 1800000000)),
        `${int(r, 1700000000, 1800000000)}${digits(r, 3)}`,
      ]),
    ),
  bare_date: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["deploy date", "cutover", "release", "incident date", "expires"]),
      dateText(r, 1990, 2030),
    ),
  bare_number: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["order", "invoice", "ticket", "build", "rows", "bytes", "job", "port", "count", "amount"]),
      pick(r, [
        digits(r, int(r, 6, 12)).replace(/^0/, "1"),
        String(int(r, 1, 65535)),
        `${int(r, 1, 999)},${digits(r, 3)}.${digits(r, 2)}`,
        `#${digits(r, 7)}`,
      ]),
    ),
  place: (r, carrier) =>
    carry(
      r,
      carrier,
      pick(r, ["region", "office", "datacenter", "team location"]),
      pick(r, [
        "Frankfurt",
        "London",
        "Paris",
        "São Paulo",
        "Mumbai",
        "Tokyo",
        "Singapore",
        "Sydney",
        "Toronto",
        "Madrid",
        "Milano",
        "Amsterdam",
        "Main Street office",
        "the Baker Street team",
        "eu-west-1",
      ]),
    ),
  credential_prose: (r) =>
    pick(r, [
      "Rotated the password for the staging box yesterday; nobody should use the old one.",
      "The token expired at 09:00, so the deploy job failed with 401.",
      "Reset the secret for grafana; the new one is in the vault.",
      "password: see 1Password entry 'prod db'",
      "api key is stored in the secrets manager under /prod/payments",
      "We need to rotate credentials for the CI runner every 90 days.",
      "The passport office API was down for 20 minutes.",
      "born-again cluster: the node pool was recreated on 2026-02-03.",
      "patient queue backed up by 3127 messages",
      "driver license check service returned 503 for 4 minutes",
    ]),
};
