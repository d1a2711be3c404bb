// `warden board` as people read it: a headline (totals, backpressure, oldest ready) and one row per persona, ≤ 100 cols.
import { durationText } from "../src/lib/time-text.ts";
import { PRETTY_COLUMNS, table } from "./io.ts";

/** What the renderer reads of GET /v1/board. */
export type BoardAnswer = {
  ready: number;
  leased: number;
  waiting: number;
  by_persona_priority: Array<{ state: string; persona_id: string | null; priority: number; count: number }>;
  oldest_ready: { run_id: string; item_id: string; persona_id: string | null; age_ms: number } | null;
  backpressure: { on: boolean; ready_over: boolean; tokens_over: boolean; tokens_last_hour: number };
  settings: { max_ready: number | null; max_tokens_per_hour: number | null };
};
/** What the renderer reads of GET /v1/personas. */
export type PersonaAnswer = {
  persona_id: string;
  concurrency_limit: number;
  enabled: boolean;
  registered: boolean;
  leased: number;
  ready: number;
  waiting: number;
  oldest_ready_age_ms: number | null;
};

/** the row of items that name no persona */
export const NO_PERSONA = "(any)";

/** "9:2 5:1": ready items by priority, highest first. */
function readyByPriority(board: BoardAnswer, persona: string | null): string {
  return board.by_persona_priority
    .filter((r) => r.state === "ready" && r.persona_id === persona && r.count > 0)
    .sort((a, b) => b.priority - a.priority)
    .map((r) => `${r.priority}:${r.count}`)
    .join(" ");
}

function backpressureText(board: BoardAnswer): string {
  const { backpressure: bp, settings } = board;
  const why = [bp.ready_over ? "ready over max_ready" : "", bp.tokens_over ? "token rate over max_tokens_per_hour" : ""]
    .filter(Boolean)
    .join(", ");
  const limits = `max_ready ${settings.max_ready ?? "none"}, tokens ${bp.tokens_last_hour}/h of ${settings.max_tokens_per_hour ?? "no limit"}`;
  return `backpressure ${bp.on ? `ON (${why})` : "off"} · ${limits}`;
}

/** The rows: every persona (registered or named by items), then the items that name none when there are any. */
export function boardRows(board: BoardAnswer, personas: readonly PersonaAnswer[]) {
  const rows: Array<Record<string, string | number>> = personas.map((p) => ({
    persona: p.persona_id,
    cap: p.concurrency_limit,
    enabled: p.enabled ? (p.registered ? "yes" : "yes (unset)") : "NO",
    leased: p.leased,
    ready: p.ready,
    waiting: p.waiting,
    oldest_wait: p.oldest_ready_age_ms === null ? "-" : durationText(p.oldest_ready_age_ms),
    ready_by_priority: readyByPriority(board, p.persona_id) || "-",
  }));
  const count = (state: string) =>
    board.by_persona_priority
      .filter((r) => r.persona_id === null && r.state === state)
      .reduce((n, r) => n + r.count, 0);
  const free = { leased: count("leased"), ready: count("ready"), waiting: count("waiting") };
  if (free.leased + free.ready + free.waiting > 0) {
    // the board names only the team's oldest ready item; other ages of persona-free items are not reported
    const oldest = board.oldest_ready?.persona_id === null ? durationText(board.oldest_ready.age_ms) : "";
    rows.push({
      persona: NO_PERSONA,
      cap: "-",
      enabled: "-",
      ...free,
      oldest_wait: oldest || "-",
      ready_by_priority: readyByPriority(board, null) || "-",
    });
  }
  return rows;
}

/** The whole text: headline, backpressure, oldest ready item, then the table (every line ≤ PRETTY_COLUMNS). */
export function boardText(board: BoardAnswer, personas: readonly PersonaAnswer[]): string {
  const o = board.oldest_ready;
  const lines = [
    `board: ${board.ready} ready, ${board.leased} leased, ${board.waiting} waiting`,
    backpressureText(board),
    o
      ? `oldest ready: ${o.item_id} of ${o.run_id}${o.persona_id ? ` (persona ${o.persona_id})` : ""}, waiting ${durationText(o.age_ms)}`
      : "oldest ready: none",
    "",
  ].map((l) => (l.length > PRETTY_COLUMNS ? `${l.slice(0, PRETTY_COLUMNS - 1)}…` : l));
  const rows = boardRows(board, personas);
  return [...lines, rows.length ? table(rows) : "(no personas and no items)"].join("\n");
}
