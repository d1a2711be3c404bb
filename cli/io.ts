// The CLI's plumbing: exit codes, JSON or --pretty output, failures mapped from the error envelope, a stderr progress bar.
import type { WardenError } from "../src/client/index.ts";

export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 3, refused: 4, unavailable: 5 } as const;

export const EXIT_HELP = `
Exit codes:
  0  success (JSON on stdout)
  2  usage: unknown command, missing or malformed flag
  3  auth: no token, or the token was refused (401) or lacks the scope / reaches another team (403)
  4  refused input: the server refused the request (400 validation, 404, 409 conflict, 413, 415, 422 redaction/pii/rejected)
  5  server unavailable: unreachable, 5xx, or rate limited (429)

Environment: WARDEN_URL (no default: else the server of the one saved \`warden login\`; 127.0.0.1 and localhost are the same
server), WARDEN_TOKEN (else the token of \`warden login\` for this server, refreshed before it expires; else a token is
minted from ./.dev.vars for WARDEN_TEAM, which must then be set), WARDEN_API_KEY (for \`warden login\`), XDG_CONFIG_HOME
(where \`warden login\` saves), WARDEN_AGENT_ID, WARDEN_SESSION_KIND, WARDEN_MEMORY=0 (memory opt-out).
--verbose prints {server, server_from, team, credentials} on stderr before the command runs.`;

/** A failure that ends the command with a given exit code and a JSON error on stderr. */
export class CliExit extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export function exitCodeFor(e: WardenError): number {
  if (e.status === 0 || e.status >= 500 || e.status === 429) return EXIT.unavailable;
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  return EXIT.refused;
}

/** Renders rows as an aligned text table (the --pretty output). */
export function table(rows: ReadonlyArray<Record<string, unknown>>): string {
  if (rows.length === 0) return "(none)";
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) =>
    v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  const width = cols.map((c) => Math.min(48, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.slice(0, width[i]).padEnd(width[i] as number))
      .join("  ")
      .trimEnd();
  return [
    line(cols),
    line(width.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
  ].join("\n");
}

/** Pretty form of an answer: the first array of objects found becomes a table, the scalars a key/value table. */
export function pretty(value: unknown): string {
  if (Array.isArray(value)) return table(value.map((v) => (typeof v === "object" && v !== null ? v : { value: v })));
  if (typeof value !== "object" || value === null) return String(value);
  const o = value as Record<string, unknown>;
  const scalars = Object.entries(o).filter(([, v]) => typeof v !== "object" || v === null);
  const lists = Object.entries(o).filter(([, v]) => Array.isArray(v) && v.length > 0 && typeof v[0] === "object");
  const parts = [table(scalars.map(([key, v]) => ({ key, value: v })))];
  for (const [k, v] of lists) parts.push(`\n${k}:\n${table(v as Record<string, unknown>[])}`);
  return parts.join("\n");
}

export function print(value: unknown, asPretty: boolean): void {
  process.stdout.write(`${asPretty ? pretty(value) : JSON.stringify(value)}\n`);
}

/** A progress bar on stderr (only when stderr is a terminal, so agents' logs stay clean). */
export function progress(total: number, label: string) {
  const tty = process.stderr.isTTY === true;
  let done = 0;
  const draw = () => {
    if (!tty) return;
    const w = 24;
    const filled = total === 0 ? w : Math.round((done / total) * w);
    process.stderr.write(`\r${label} [${"#".repeat(filled)}${".".repeat(w - filled)}] ${done}/${total}`);
  };
  draw();
  return {
    tick(n = 1) {
      done += n;
      draw();
    },
    end() {
      if (tty) process.stderr.write("\n");
    },
  };
}

/** A spinner on stderr while one long call runs (replay). */
export async function spinning<T>(label: string, work: Promise<T>): Promise<T> {
  if (process.stderr.isTTY !== true) return work;
  const frames = "|/-\\";
  let i = 0;
  const t = setInterval(() => process.stderr.write(`\r${label} ${frames[i++ % 4]}`), 120);
  try {
    return await work;
  } finally {
    clearInterval(t);
    process.stderr.write("\r\x1b[K");
  }
}
