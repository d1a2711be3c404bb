// Secret makers of the guard corpus beyond known prefixes: credential words with random values, passwords in prose, connection strings, Azure, GCP and kubeconfig blocks.
import { type Carrier, carry } from "./carriers";
import { digits, int, pick, type Rand } from "./identifiers";

const UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOW = "abcdefghijklmnopqrstuvwxyz";
const DIG = "0123456789";
const HEX = "0123456789abcdef";
const B64 = `${UP}${LOW}${DIG}+/`;
export const chars = (r: Rand, alphabet: string, n: number) =>
  Array.from({ length: n }, () => pick(r, [...alphabet])).join("");

/** A password a person picks: words, digits and symbols mixed, 10–20 characters. */
export function humanPassword(r: Rand): string {
  const word = pick(r, [
    "Tr0ub4dor",
    "summer",
    "Blue",
    "kestrel",
    "Orbit",
    "falcon",
    "Maple",
    "zebra",
    "Nimbus",
    "quartz",
  ]);
  return `${word}${pick(r, ["!", "#", "&", "_", "%", "@", "$", ""])}${digits(r, int(r, 2, 4))}${chars(r, UP + LOW, int(r, 2, 6))}${pick(r, ["!", "?", "*", ""])}`;
}
/** A machine secret: 20–48 characters of a random alphabet. */
export const machineSecret = (r: Rand) =>
  chars(r, pick(r, [UP + LOW + DIG, HEX, `${UP}${LOW}${DIG}_-`, B64]), int(r, 20, 48));

const CREDENTIAL_LABELS = [
  "password",
  "db_password",
  "api key",
  "client secret",
  "auth token",
  "secret",
  "access token",
  "credentials",
  "passwd",
  "pwd",
  "secret_key",
  "apiKey",
  "private token",
  "service password",
  "admin password",
  "refresh token",
];

export type SecretMaker = (r: Rand, carrier: Carrier) => string;

const hosts = ["db.internal", "10.0.3.12", "pg-primary.prod.svc", "cache-1.eu-west", "mq.corp.lan", "sql01"];

export const SECRETS: Record<string, SecretMaker> = {
  generic: (r, carrier) =>
    carry(r, carrier, pick(r, CREDENTIAL_LABELS), r() < 0.5 ? humanPassword(r) : machineSecret(r)),
  password_prose: (r) => {
    const what = pick(r, [
      "the staging box",
      "grafana admin",
      "the prod replica",
      "the VPN",
      "jenkins",
      "the shared mailbox",
      "root on bastion-2",
      "the wifi in the lab",
    ]);
    const p = humanPassword(r);
    return pick(r, [
      `FYI the password for ${what} is ${p} until Friday.`,
      `use ${p} as the password for ${what}`,
      `${p} is the current password for ${what}, rotate after the drill`,
      `login for ${what}: admin / ${p}`,
      `pw for ${what} -> ${p}`,
      `The passphrase we agreed on for ${what} was ${p}.`,
      `Credentials for ${what}\nuser: ops\npassword: ${p}`,
      `password for ${what}\n${p}`,
    ]);
  },
  connection_string: (r) => {
    const user = pick(r, ["app", "admin", "svc_reports", "root", "sa"]);
    const p = r() < 0.5 ? humanPassword(r) : machineSecret(r).replace(/[/+]/g, "x");
    const host = pick(r, hosts);
    const scheme = pick(r, [
      "postgres",
      "postgresql",
      "mysql",
      "mongodb+srv",
      "redis",
      "amqps",
      "smtp",
      "ftp",
      "sftp",
      "ldap",
      "mssql",
      "couchbase",
      "nats",
      "kafka",
    ]);
    return pick(r, [
      `conn: ${scheme}://${user}:${p}@${host}:${int(r, 1000, 9999)}/app`,
      `jdbc:postgresql://${host}:5432/app?user=${user}&password=${p}`,
      `Server=${host};Database=Reports;User Id=${user};Password=${p};TrustServerCertificate=True`,
      `Driver={ODBC Driver 18 for SQL Server};Server=${host};Uid=${user};Pwd=${p};`,
      `host=${host} port=5432 dbname=app user=${user} password=${p} sslmode=require`,
      `Data Source=${host};Initial Catalog=app;\nUser ID=${user};\nPassword=${p}`,
      `redis://:${p}@${host}:6379/0`,
    ]);
  },
  azure: (r) => {
    const account = pick(r, ["prodlogs", "warden0data", "backupstore", "mediacdn"]);
    const key = `${chars(r, B64, 86)}==`;
    const sig = encodeURIComponent(`${chars(r, B64, 43)}=`);
    return pick(r, [
      `DefaultEndpointsProtocol=https;AccountName=${account};AccountKey=${key};EndpointSuffix=core.windows.net`,
      `AccountName=${account};\nAccountKey=${key}`,
      `sas: ?sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-12-31T00:00:00Z&st=2026-01-01T00:00:00Z&spr=https&sig=${sig}`,
      `https://${account}.blob.core.windows.net/exports?sp=r&st=2026-03-01&se=2026-03-02&spr=https&sv=2022-11-02&sr=c&sig=${sig}`,
      `Endpoint=sb://${account}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${chars(r, B64, 43)}=`,
      `AZURE_CLIENT_SECRET=${chars(r, `${UP}${LOW}${DIG}`, 3)}8Q~${chars(r, `${UP}${LOW}${DIG}_.~-`, 31)}`,
      `the app registration secret is ${chars(r, `${UP}${LOW}${DIG}`, 3)}8Q~${chars(r, `${UP}${LOW}${DIG}_.~-`, 31)}`,
    ]);
  },
  gcp_service_account: (r) => {
    const project = pick(r, ["acme-prod", "warden-ci", "data-lake-123"]);
    const keyId = chars(r, HEX, 40);
    const body = chars(r, B64, 64);
    return pick(r, [
      `{\n  "type": "service_account",\n  "project_id": "${project}",\n  "private_key_id": "${keyId}",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEv${body}\\n-----END PRIVATE KEY-----\\n"\n}`,
      `sa key: {"type":"service_account","project_id":"${project}","private_key_id":"${keyId}"}`,
      `"private_key_id": "${keyId}",\n"client_id": "${digits(r, 21)}"`,
      `credentials.json had\n  "private_key":\n  "-----BEGIN PRIVATE KEY-----\\nMII${body}`,
    ]);
  },
  kubeconfig: (r) => {
    const token = pick(r, [
      `${chars(r, LOW + DIG, 6)}.${chars(r, LOW + DIG, 16)}`,
      `sha256~${chars(r, `${UP}${LOW}${DIG}_-`, 43)}`,
      chars(r, `${UP}${LOW}${DIG}`, 40),
    ]);
    return pick(r, [
      `users:\n- name: ci\n  user:\n    token: ${token}`,
      `kubectl config set-credentials ci --token=${token}`,
      `users:\n- name: admin\n  user:\n    client-key-data: ${btoa(`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${chars(r, B64, 40)}`)}`,
      `- name: oidc\n  user:\n    auth-provider:\n      config:\n        refresh-token: ${chars(r, `${UP}${LOW}${DIG}`, 32)}`,
      `users:\n- name: basic\n  user:\n    username: admin\n    password: ${humanPassword(r)}`,
    ]);
  },
};
