// The run object's sync to its team's board: an outbox item's board rows, sent in order on a chain of their own, so a
// graph operation's answer waits for the board only (not for the D1 batch or the queue behind it).
import { log } from "../../lib/log";
import type { BoardGateway } from "../../ports/board";
import type { OutboxItem } from "./storage-layout";

export class BoardSync {
  private chain: Promise<void> = Promise.resolve();
  /** outbox items whose rows reached the board (a new instance starts empty and sends them all again, in order) */
  private readonly synced = new Set<number>();

  constructor(private readonly board: BoardGateway | undefined) {}

  /** Whether an outbox item still has rows for the board (an item with none counts as synced at once). */
  behind(outbox: ReadonlyMap<number, OutboxItem>): boolean {
    let behind = false;
    for (const item of outbox.values()) {
      if (this.synced.has(item.n)) continue;
      if (item.board?.length && this.board) behind = true;
      else this.synced.add(item.n);
    }
    return behind;
  }

  has(n: number): boolean {
    return this.synced.has(n);
  }

  /** The item left the outbox: forget it. */
  forget(n: number): void {
    this.synced.delete(n);
  }

  /**
   * Serialized: sends the rows of every outbox item not yet sent, oldest first; stops at a failure and resolves
   * anyway (the outbox flush sees the item unsynced and retries it by alarm).
   */
  send(outbox: ReadonlyMap<number, OutboxItem>, team: () => { teamId: string; runId: string } | null): Promise<void> {
    const run = this.chain.then(async () => {
      for (const item of [...outbox.values()].sort((a, b) => a.n - b.n)) {
        if (this.synced.has(item.n) || !outbox.has(item.n)) continue;
        const at = team();
        if (item.board?.length && this.board && at) await this.board.forTeam(at.teamId).sync(at.runId, item.board);
        this.synced.add(item.n);
      }
    });
    this.chain = run.catch(() => undefined);
    return run.catch((e) => {
      log.error("board sync failed; the outbox retries it", { error: String(e) });
    });
  }
}
