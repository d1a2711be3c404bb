// The CLI's plumbing: exit codes, JSON or --pretty output, failures mapped from the error envelope, a stderr progress bar.
import type { WardenError } from "../src/client/index.ts";
import { isoSeconds, relativeText } from "../src/lib/time-text.ts";

/** A stream a CLI run writes to: the process's own in the bin, a buffer when a test runs the CLI in-process. */
export type CliOut = { write(text: string): unknown; isTTY?: boolean; columns?: number };

/** A CLI run's environment variables (the bin passes process.env; an in-process run its own). */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** Everything one CLI run reads from or writes to outside its arguments: nothing comes from `process` directly. */
export type CliIo = {
  env: CliEnv;
  /** where relative paths (.dev.vars, JSON files given as flags) are read */
  cwd: string;
  stdout: CliOut;
  stderr: CliOut;
  /** asked only to confirm bulk actions; a run without one is not a terminal */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
};

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

/** The widest a --pretty line may be. */
export const PRETTY_COLUMNS = 100;

/** Cuts a cell to `w` characters, marking the cut with "…". */
const clip = (v: string, w: number) => (v.length <= w ? v : `${v.slice(0, Math.max(0, w - 1))}…`);

/** Whether a column holds ids (never cut: an id is copied, not read). */
const isIdColumn = (name: string) => name === "id" || name.endsWith("_id") || name === "key";

/**
 * Which columns a table shows and how wide, within `max` (two spaces between columns): other columns give way first,
 * widest first, down to 8 characters; id columns keep their width; then columns are dropped from the right (ids last).
 */
export function fitColumns(names: readonly string[], natural: readonly number[], max = PRETTY_COLUMNS) {
  const widths = [...natural];
  let shown = names.map((_, i) => i);
  const total = () => shown.reduce((a, i) => a + (widths[i] as number), 0) + 2 * Math.max(0, shown.length - 1);
  for (;;) {
    if (total() <= max) break;
    const cuttable = shown.filter((i) => !isIdColumn(names[i] as string) && (widths[i] as number) > 8);
    if (cuttable.length) {
      const widest = cuttable.reduce((a, b) => ((widths[b] as number) > (widths[a] as number) ? b : a));
      widths[widest] = (widths[widest] as number) - 1;
      continue;
    }
    if (shown.length <= 1) break;
    const drop = [...shown].reverse().find((i) => !isIdColumn(names[i] as string)) ?? (shown.at(-1) as number);
    shown = shown.filter((i) => i !== drop);
  }
  return { shown, widths };
}

/** Renders rows as an aligned text table (the --pretty output), at most PRETTY_COLUMNS wide. */
export function table(rows: ReadonlyArray<Record<string, unknown>>): string {
  if (rows.length === 0) return "(none)";
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) =>
    v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  const natural = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const { shown, widths } = fitColumns(cols, natural);
  const line = (vals: string[]) =>
    shown
      .map((i) => clip(vals[i] as string, widths[i] as number).padEnd(widths[i] as number))
      .join("  ")
      .trimEnd();
  const hidden = cols.length - shown.length;
  return [
    line(cols),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
    ...(hidden
      ? [
          `(${hidden} more column${hidden === 1 ? "" : "s"}: ${cols.filter((_, i) => !shown.includes(i)).join(", ")}; without --pretty, JSON has them all)`.slice(
            0,
            PRETTY_COLUMNS,
          ),
        ]
      : []),
  ].join("\n");
}

/** When a field is a time (`*_at`, `at`, `deadline`): its instant in ms, else null. */
function instantOf(key: string, v: unknown): number | null {
  if (!(key === "at" || key.endsWith("_at") || key === "deadline")) return null;
  if (typeof v === "number" && v > 1e11) return v;
  if (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/**
 * Times as people read them: local ISO to the second with the zone, and how long ago or ahead (`offsetOf` gives the
 * zone's offset in minutes east of UTC for an instant; the machine's by default). Applied to every field, nested too.
 */
export function readableTimes(
  value: unknown,
  now: number,
  offsetOf = (ms: number) => -new Date(ms).getTimezoneOffset(),
) {
  const walk = (v: unknown, key: string): unknown => {
    const ms = instantOf(key, v);
    if (ms !== null) return `${isoSeconds(ms, offsetOf(ms))} (${relativeText(ms, now)})`;
    if (Array.isArray(v)) return v.map((x) => walk(x, ""));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value, "");
}

/** Pretty form of an answer: the first array of objects found becomes a table, the scalars a key/value table. */
export function pretty(value: unknown, now = Date.now(), offsetOf?: (ms: number) => number): string {
  const readable = offsetOf ? readableTimes(value, now, offsetOf) : readableTimes(value, now);
  if (Array.isArray(readable))
    return table(readable.map((v) => (typeof v === "object" && v !== null ? v : { value: v })));
  if (typeof readable !== "object" || readable === null) return String(readable);
  const o = readable as Record<string, unknown>;
  const scalars = Object.entries(o).filter(([, v]) => typeof v !== "object" || v === null);
  const lists = Object.entries(o).filter(([, v]) => Array.isArray(v) && v.length > 0 && typeof v[0] === "object");
  const parts = [table(scalars.map(([key, v]) => ({ key, value: v })))];
  for (const [k, v] of lists) parts.push(`\n${k}:\n${table(v as Record<string, unknown>[])}`);
  return parts.join("\n");
}

export function print(stdout: CliOut, value: unknown, asPretty: boolean): void {
  stdout.write(`${asPretty ? pretty(value) : JSON.stringify(value)}\n`);
}

/** A progress bar on stderr (only when stderr is a terminal, so agents' logs stay clean). */
export function progress(stderr: CliOut, total: number, label: string) {
  const tty = stderr.isTTY === true;
  let done = 0;
  const draw = () => {
    if (!tty) return;
    const w = 24;
    const filled = total === 0 ? w : Math.round((done / total) * w);
    stderr.write(`\r${label} [${"#".repeat(filled)}${".".repeat(w - filled)}] ${done}/${total}`);
  };
  draw();
  return {
    tick(n = 1) {
      done += n;
      draw();
    },
    end() {
      if (tty) stderr.write("\n");
    },
  };
}

/** A spinner on stderr while one long call runs (replay). */
export async function spinning<T>(stderr: CliOut, label: string, work: Promise<T>): Promise<T> {
  if (stderr.isTTY !== true) return work;
  const frames = "|/-\\";
  let i = 0;
  const t = setInterval(() => stderr.write(`\r${label} ${frames[i++ % 4]}`), 120);
  try {
    return await work;
  } finally {
    clearInterval(t);
    stderr.write("\r\x1b[K");
  }
}
