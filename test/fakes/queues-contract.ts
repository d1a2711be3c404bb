// What Warden relies on from Cloudflare Queues, as one suite: run against miniflare's queues in workerd
// (queues.contract.test.ts) and the in-process stand-in in Node (queues.contract.unit.test.ts), through the Worker's own
// EVENTS consumers — delivery of what was sent, retry until max_retries then the dead-letter queue, per-message ack.
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureLogLines } from "../log-lines";

/**
 * One side of the contract: the EVENTS producer, the D1 its consumers write, and a wait for the deliveries (workerd:
 * polls `done` while miniflare delivers; the stand-in: drains, then `done` must hold).
 */
export type QueueHarness = {
  events: Queue<unknown>;
  db: D1Database;
  settle(done: () => Promise<boolean>): Promise<void>;
};

const runCompleted = (team: string, run: string) => ({
  event_id: `qc-${team}-${run}`,
  type: "run.completed",
  team_id: team,
  run_id: run,
  occurred_at: 1_700_000_000_000,
  tasks: [{ skill: "qc-skill", outcome: "success" }],
});
/** a known type that does not fit its schema (no occurred_at): the EVENTS consumer retries it */
const malformed = (team: string, id: string) => ({
  event_id: id,
  type: "gate.opened",
  team_id: team,
  run_id: "run_qc",
});

export function queuesContract(name: string, open: () => Promise<QueueHarness>) {
  describe(`queues contract: ${name}`, () => {
    afterEach(() => vi.restoreAllMocks());
    /** the EVENTS consumer's line per delivery of a malformed event: how many times it was handed over */
    const malformedDeliveries = (lines: Record<string, unknown>[], eventId: string) =>
      lines.filter((l) => l.msg === "events consumer: malformed event" && l.event_id === eventId).length;
    const successCounts = async (db: D1Database, team: string) =>
      (
        await db
          .prepare("SELECT success_count FROM policy_memory_entry WHERE team_id = ?")
          .bind(team)
          .all<{ success_count: number }>()
      ).results.map((r) => r.success_count);
    const deadLetters = async (db: D1Database, team: string) =>
      (
        await db
          .prepare("SELECT id, event_id, body, attempts FROM event_dead_letter WHERE team_id = ? ORDER BY event_id")
          .bind(team)
          .all<{ id: string; event_id: string; body: string; attempts: number }>()
      ).results;

    it("delivers what was sent, by send and by sendBatch, to the queue's consumer", async () => {
      const q = await open();
      const team = `qc-deliver-${crypto.randomUUID().slice(0, 8)}`;
      await q.events.send(runCompleted(team, "r1"), { contentType: "json" });
      await q.events.sendBatch([{ body: runCompleted(team, "r2") }, { body: runCompleted(team, "r3") }]);
      await q.settle(async () => (await successCounts(q.db, team))[0] === 3);
      expect(await successCounts(q.db, team)).toEqual([3]);
      expect(await deadLetters(q.db, team)).toEqual([]);
    });

    it("retries a message until max_retries, then hands it to the dead-letter queue's consumer unchanged", async () => {
      const q = await open();
      const team = `qc-dlq-${crypto.randomUUID().slice(0, 8)}`;
      const body = malformed(team, `qc-bad-${team}`);
      const lines = captureLogLines();
      await q.events.send(body);
      await q.settle(async () => (await deadLetters(q.db, team)).length === 1);
      // warden-events: max_retries = 3, so 4 deliveries
      expect(malformedDeliveries(lines, body.event_id)).toBe(4);
      // the dead-letter queue's delivery is that queue's first attempt of the message
      expect(await deadLetters(q.db, team)).toEqual([
        { id: `evt:${body.event_id}`, event_id: body.event_id, body: JSON.stringify(body), attempts: 1 },
      ]);
    });

    it("acks one message of a batch and retries only the other, which alone is dead-lettered", async () => {
      const q = await open();
      const team = `qc-batch-${crypto.randomUUID().slice(0, 8)}`;
      const bad = malformed(team, `qc-bad-${team}`);
      const good = runCompleted(team, "r1");
      const lines = captureLogLines();
      await q.events.sendBatch([{ body: good }, { body: bad }]);
      await q.settle(async () => (await deadLetters(q.db, team)).length === 1);
      expect(malformedDeliveries(lines, bad.event_id)).toBe(4);
      expect((await deadLetters(q.db, team)).map((d) => d.event_id)).toEqual([bad.event_id]);
      expect(await successCounts(q.db, team)).toEqual([1]);
    });
  });
}
