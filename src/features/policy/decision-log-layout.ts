// The decision log's layout on R2 (pure): object keys per (team, UTC hour, batch), NDJSON encoding, batch ids, counters.
import type { CounterBatch, DecisionCounts } from "../../ports/decision-log";
import type { LoggedDecision } from "./store/policy-store-port";

export const HOUR_MS = 3_600_000;

/** Every decision-log object lives under this prefix of the DECISION_LOG bucket (docs/storage.md). */
export const DECISIONS_PREFIX = "decisions/";

/** Start of the UTC hour that holds `ms`. */
export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** "2026-11-27T14:00:00Z": how an hour is named in responses. */
export const hourName = (hour: number): string => `${new Date(hour).toISOString().slice(0, 13)}:00:00Z`;

/**
 * `decisions/<team>/` — the team id is URI-encoded, so no team id can reach into another team's keys (a "/" or ".."
 * in an id stays one path segment). Keys are built only from the verified token's team.
 */
export const teamPrefix = (teamId: string): string => `${DECISIONS_PREFIX}${encodeURIComponent(teamId)}/`;

/** `decisions/<team>/<yyyy-mm-dd>/<hh>/`: every object of one team's hour; sorts in time order. */
export function hourPrefix(teamId: string, hour: number): string {
  const iso = new Date(hourOf(hour)).toISOString();
  return `${teamPrefix(teamId)}${iso.slice(0, 10)}/${iso.slice(11, 13)}/`;
}

/** `decisions/<team>/<yyyy-mm-dd>/<hh>/<batch_id>.ndjson` */
export const objectKey = (teamId: string, hour: number, batchId: string): string =>
  `${hourPrefix(teamId, hour)}${batchId}.ndjson`;

/** The hour a key under `teamPrefix(teamId)` belongs to, or null for a key of another shape. */
export function hourOfKey(teamId: string, key: string): number | null {
  const prefix = teamPrefix(teamId);
  if (!key.startsWith(prefix)) return null;
  const m = /^(\d{4}-\d{2}-\d{2})\/(\d{2})\/[^/]+\.ndjson$/.exec(key.slice(prefix.length));
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}:00:00Z`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The batch id of a group of decisions: the first 128 bits of SHA-256 over its sorted, distinct decision ids (the
 * EVENTS message's event ids), so a redelivered group maps to the same object and the same manifest row.
 */
export async function batchIdOf(decisionIds: readonly string[]): Promise<string> {
  const text = [...new Set(decisionIds)].sort().join("\n");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

const byTimeThenId = (a: LoggedDecision, b: LoggedDecision) =>
  a.created_at - b.created_at || (a.decision_id < b.decision_id ? -1 : a.decision_id > b.decision_id ? 1 : 0);

/** One decision per line, in (created_at, decision_id) order, duplicates by id dropped: equal groups, equal bytes. */
export function encodeDecisions(decisions: readonly LoggedDecision[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const d of [...decisions].sort(byTimeThenId)) {
    if (seen.has(d.decision_id)) continue;
    seen.add(d.decision_id);
    lines.push(JSON.stringify(d));
  }
  return `${lines.join("\n")}\n`;
}

/** The decisions of one object; a line that is not a JSON object is skipped (never throws on a damaged object). */
export function decodeDecisions(text: string): LoggedDecision[] {
  const out: LoggedDecision[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const d = JSON.parse(line) as LoggedDecision;
      if (d && typeof d === "object" && typeof d.decision_id === "string" && typeof d.created_at === "number")
        out.push(d);
    } catch {
      // a torn or foreign line: the rest of the object still reads
    }
  }
  return out;
}

/** Merges decision lists oldest first, one entry per decision_id (a decision logged twice is read once). */
export function mergeDecisions(...lists: readonly (readonly LoggedDecision[])[]): LoggedDecision[] {
  const byId = new Map<string, LoggedDecision>();
  for (const list of lists) for (const d of list) if (!byId.has(d.decision_id)) byId.set(d.decision_id, d);
  return [...byId.values()].sort(byTimeThenId);
}

export type DecisionGroup = { teamId: string; hour: number; decisions: LoggedDecision[] };

/** Groups decisions by (team, UTC hour), in a stable order. */
export function groupByTeamHour(decisions: readonly LoggedDecision[]): DecisionGroup[] {
  const groups = new Map<string, DecisionGroup>();
  for (const d of decisions) {
    const hour = hourOf(d.created_at);
    const k = `${d.team_id}\u0000${hour}`;
    const g = groups.get(k) ?? { teamId: d.team_id, hour, decisions: [] };
    g.decisions.push(d);
    groups.set(k, g);
  }
  return [...groups.values()].sort((a, b) => (a.teamId < b.teamId ? -1 : a.teamId > b.teamId ? 1 : a.hour - b.hour));
}

export type DecisionCounter = CounterBatch["counters"][number];

/** The counters one group adds: per (failure class, effective mode, selected action), distinct decision ids only. */
export function countersOf(decisions: readonly LoggedDecision[]): DecisionCounter[] {
  const rows = new Map<string, DecisionCounter>();
  for (const d of mergeDecisions(decisions)) {
    const failureClass = d.failure_class ?? "";
    const k = `${failureClass}\u0000${d.effective_mode}\u0000${d.selected_action}`;
    const row = rows.get(k) ?? {
      failureClass,
      mode: d.effective_mode,
      action: d.selected_action,
      decisions: 0,
      unknownClass: 0,
      missingMetadata: 0,
    };
    row.decisions++;
    if (d.rule_id === "default.unknown_failure_class") row.unknownClass++;
    if (d.rule_id === "default.missing_metadata") row.missingMetadata++;
    rows.set(k, row);
  }
  return [...rows.values()];
}

export const NO_DECISIONS: DecisionCounts = { decisions: 0, escalations: 0, unknownClass: 0, missingMetadata: 0 };

/** Sums counters into the metrics' four figures (escalations: selected action `escalate`). */
export function sumCounters(rows: readonly DecisionCounter[]): DecisionCounts {
  const out = { ...NO_DECISIONS };
  for (const r of rows) {
    out.decisions += r.decisions;
    if (r.action === "escalate") out.escalations += r.decisions;
    out.unknownClass += r.unknownClass;
    out.missingMetadata += r.missingMetadata;
  }
  return out;
}

export const addCounts = (a: DecisionCounts, b: DecisionCounts): DecisionCounts => ({
  decisions: a.decisions + b.decisions,
  escalations: a.escalations + b.escalations,
  unknownClass: a.unknownClass + b.unknownClass,
  missingMetadata: a.missingMetadata + b.missingMetadata,
});
