// The learning reconciliation over the D1 stand-in, the run objects and the EVENTS queue stand-in (its consumer drained
// by the test): a run.completed the queue lost is found by the sweep, re-sent by its object with its own event id, and
// learned exactly once.
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { RunDO } from "../../../durable-objects/run-do";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeHelpers } from "../../../test/node-d1/app";
import { runs, tableRows } from "../../../test/node-d1/table-rows";
import type { EventBus } from "../../ports/event-bus";
import { processedEvents } from "../learning/store/tables";
import { RECONCILE_GRACE_MS, RECONCILE_SUBJECT, reconcileLearning } from "./learning-reconcile";

const h = await nodeHelpers({ queues: true });
const { call, complete, deps, drainAll, drainQueues, leasedOrder, stubFor, token } = h;
const recordRows = tableRows(h);

/** The run object's EVENTS bus, swapped: `lose` drops run.completed as a crash between queue send and delivery does. */
async function setLoss(runId: string, lose: boolean) {
  await runInDurableObject(stubFor(runId), (instance: RunDO) => {
    const needs = (instance.engine as unknown as { deps: { events: EventBus & { real?: EventBus } } }).deps;
    const real = needs.events.real ?? needs.events;
    needs.events = lose
      ? { real, publish: (events) => real.publish(events.filter((e) => e.type !== "run.completed")) }
      : real;
  });
}

/** how many of the run's run.completed events the learning consumer applied (its idempotency keys) */
const learnedKeys = async (runId: string) => {
  const p = processedEvents;
  const where = and(eq(p.type, "run.completed"), like(p.eventId, `evt_${runId}_%`));
  return (await recordRows(p, where)).length;
};

async function finishedRunWithLostCompletion(tok: string, skill: string) {
  const run = await leasedOrder(tok, "o1", {}, { goal: "lost completion", skills: [skill] });
  await setLoss(run.runId, true);
  const done = await complete(tok, run.runId, "o1", {
    lease_id: run.lease.lease_id,
    epoch: run.lease.epoch,
    op_id: "op-1",
    outcome: "PASS",
    tokens_in: 10,
    tokens_out: 5,
  });
  expect(done.json.next).toBe("complete");
  await drainAll();
  // the queue delivers what was sent (the run's other events): all but the lost run.completed are learned
  await drainQueues();
  await setLoss(run.runId, false);
  return run.runId;
}

describe("learning reconciliation (security 22.9)", () => {
  it("re-sends a lost run.completed once; the run is learned exactly once, and a second tick finds nothing", async () => {
    const team = "team-reconcile";
    const tok = await token(team);
    const runId = await finishedRunWithLostCompletion(tok, "reconcile.skill");
    const [row] = await recordRows(runs, eq(runs.runId, runId), { status: runs.status, updated_at: runs.updatedAt });
    expect(row?.status).toBe("COMPLETE");
    // the run objects' clocks run ahead of the wall clock in tests: the sweep's clock follows the run's
    const finishedAt = row?.updated_at ?? 0;
    expect(await learnedKeys(runId)).toBe(0);

    // inside the grace period the completion may still be on the queue: left alone
    const early = await reconcileLearning(deps, finishedAt + 1_000);
    expect(early.unlearned).toBe(0);

    const now = finishedAt + RECONCILE_GRACE_MS + 1_000;
    const first = await reconcileLearning(deps, now);
    expect(first).toMatchObject({ unlearned: 1, resent: 1, errors: [] });
    // the re-sent run.completed, delivered by the queue
    await drainQueues();
    expect(await learnedKeys(runId)).toBe(1);
    const memory = await call("GET", "/v1/policy-memory", { token: tok });
    const entry = memory.json.entries.find((e: { skill_name: string }) => e.skill_name === "reconcile.skill");
    expect(entry).toMatchObject({ success_count: 1, failure_count: 0 });

    const second = await reconcileLearning(deps, now + 60_000);
    expect(second).toMatchObject({ unlearned: 0, resent: 0 });
    const again = await call("GET", "/v1/policy-memory", { token: tok });
    expect(again.json.entries.find((e: { skill_name: string }) => e.skill_name === "reconcile.skill")).toMatchObject({
      success_count: 1,
    });
  });

  it("reaches a run object only with the run's own team: another team's actor is told not_found", async () => {
    const tok = await token("team-reconcile-b");
    const runId = await finishedRunWithLostCompletion(tok, "reconcile.other");
    const r = await (stubFor(runId) as unknown as Pick<RunDO, "resend_completion">).resend_completion(runId, {
      actor: { team_id: "team-someone-else", subject: RECONCILE_SUBJECT },
    });
    expect(r).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await learnedKeys(runId)).toBe(0);
  });
});
