// The board's ops alerts: backpressure on, the token rate exceeded, a disabled persona's items waiting longer than the
// team's setting — each kind raised at most once per alert window (claimed in board_alert) through the alerts path.
import { log } from "../../lib/log";
import type { BoardAlertKind, BoardAlertSink, BoardSettings } from "../../ports/board";
import type { BoardStore } from "./board-store";

const minutes = (ms: number) => Math.round(ms / 60_000);

export class BoardAlerts {
  constructor(
    private readonly store: BoardStore,
    private readonly sink: BoardAlertSink | undefined,
    private readonly teamId: string | undefined,
  ) {}

  /** Raises `kind` unless it was raised in this window already; a failed raise is logged, never the caller's error. */
  async raise(kind: BoardAlertKind, now: number, detail: string): Promise<void> {
    if (!this.sink || !this.teamId) return;
    const windowStart = now - (now % this.sink.windowMs);
    if (!this.store.claimAlert(kind, windowStart)) return;
    const id = `board:${this.teamId}:${kind}:${windowStart}`;
    try {
      await this.sink.raise([{ id, team_id: this.teamId, kind, at: now, detail }]);
    } catch (e) {
      log.error("board alert not raised", { kind, error: String(e) });
    }
  }

  /**
   * Alerts once per window while a disabled persona's oldest ready item has waited `persona_wait_alert_ms`; answers
   * when to look again (an item about to pass the setting, or the next window while one has) — null: nothing waits.
   */
  async checkWaiting(settings: BoardSettings, now: number): Promise<number | null> {
    const wait = settings.persona_wait_alert_ms;
    const rows = this.store.disabledWaiting();
    const late = rows.filter((r) => now - r.oldest >= wait);
    if (late.length > 0) {
      const what = late.map((r) => `${r.persona_id} (${r.n} ready, oldest ${minutes(now - r.oldest)} min)`);
      await this.raise(
        "board_persona_waiting",
        now,
        `disabled persona items waiting over ${minutes(wait)} min: ${what.join(", ")}`,
      );
    }
    if (rows.length === 0) return null;
    const windowMs = this.sink?.windowMs ?? wait;
    const nextWindow = now - (now % windowMs) + windowMs;
    return Math.min(...rows.map((r) => (now - r.oldest >= wait ? nextWindow : r.oldest + wait)));
  }
}
