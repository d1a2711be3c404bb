// The one logger: every line is one JSON object carrying the correlation fields of the work in hand (seed 003 §12).
// The fields live in an AsyncLocalStorage scope opened where the work starts (a request, a queue message, a run
// operation, a cron), so a log call deep inside a use-case carries them without being handed them.
import { AsyncLocalStorage } from "node:async_hooks";

/** The correlation fields a line carries when the work knows them (seed 003 §12), in the order they are written. */
export const CORRELATION_FIELDS = [
  "team_id",
  "run_id",
  "task_id",
  "order_id",
  "step_id",
  "persona_id",
  "request_id",
] as const;
export type CorrelationField = (typeof CORRELATION_FIELDS)[number];
export type Correlation = Partial<Record<CorrelationField, string>>;

export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const scope = new AsyncLocalStorage<Correlation>();

/** Only the correlation fields that hold a non-empty string (a missing claim or route param adds nothing). */
function known(fields: Partial<Record<CorrelationField, unknown>>): Correlation {
  const out: Correlation = {};
  for (const name of CORRELATION_FIELDS) {
    const v = fields[name];
    if (typeof v === "string" && v !== "") out[name] = v;
  }
  return out;
}

/** Runs `work` with these fields added to the enclosing scope's (promises it starts keep them). */
export function withLogContext<T>(fields: Partial<Record<CorrelationField, unknown>>, work: () => T): T {
  return scope.run({ ...scope.getStore(), ...known(fields) }, work);
}

/**
 * The correlation fields a queue message's body names (an event's team_id and run_id, an outbox message's team_id),
 * for `withLogContext`: anything else in the body, and a body that is not an object, adds nothing.
 */
export function messageCorrelation(body: unknown): Correlation {
  return body && typeof body === "object" ? known(body as Partial<Record<CorrelationField, unknown>>) : {};
}

/** The correlation fields every one of these message bodies agrees on (a batch of one run's events: its team and run). */
export function sharedCorrelation(bodies: readonly unknown[]): Correlation {
  const [first, ...rest] = bodies.map(messageCorrelation);
  const out: Correlation = { ...first };
  for (const c of rest) for (const k of Object.keys(out) as CorrelationField[]) if (c[k] !== out[k]) delete out[k];
  return out;
}

/**
 * Adds fields learnt part-way through the work (the token's team after authentication) to the current scope; a field
 * the scope already holds keeps its value (the run a path names wins over the token's).
 */
export function addLogContext(fields: Partial<Record<CorrelationField, unknown>>): void {
  const store = scope.getStore();
  if (store) for (const [k, v] of Object.entries(known(fields))) store[k as CorrelationField] ??= v;
}

/** The correlation fields of the current scope (a copy). */
export const logContext = (): Correlation => ({ ...scope.getStore() });

/** One JSON line: level, msg, the scope's correlation fields, then the call's own fields (which win on a clash). */
export function logLine(level: LogLevel, msg: string, fields: LogFields = {}): string {
  const line: LogFields = { level, msg, ...scope.getStore() };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) line[k] = v instanceof Error ? String(v) : v;
  try {
    return JSON.stringify(line);
  } catch {
    // a field that does not serialise (a cycle, a BigInt) must not lose the line
    return JSON.stringify({ level, msg, ...scope.getStore(), fields_unserialisable: true });
  }
}

/** The logger every file under src/ and durable-objects/ uses; nothing else calls console. */
export const log = {
  info: (msg: string, fields?: LogFields) => console.log(logLine("info", msg, fields)),
  warn: (msg: string, fields?: LogFields) => console.warn(logLine("warn", msg, fields)),
  error: (msg: string, fields?: LogFields) => console.error(logLine("error", msg, fields)),
};
