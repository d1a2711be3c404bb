// The board's coalesced ops alerts through the alerts path (D1 stand-in): backpressure, the token rate and a disabled
// persona's items waiting past the team's setting — once per (team, kind) per window, again in the next window.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { BoardDO } from "../../../durable-objects/board-do";
import { item } from "../../../test/board-items";
import { runDurableObjectAlarm, runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { tableRows } from "../../../test/node-d1/table-rows";
import { ALERT_WINDOW_MS } from "../slack";
import { slackAlertOccurrences } from "../slack/store/tables";

const h = await nodeSlackHelpers();
const { call, installSlack, objects, token } = h;
const recordRows = tableRows(h);

const MIN = 60_000;
const boardOf = (team: string) => objects.BOARD.get(objects.BOARD.idFromName(`board:${team}`));
/** Moves the team's board clock `ms` ahead of the wall clock. */
const moveBoardClock = (team: string, ms: number) =>
  runInDurableObject(boardOf(team), (instance: BoardDO) => {
    instance.board.clock = { now: () => Date.now() + ms };
  });
/** the team's alert occurrences of one kind (the alerts path's D1 rows), in the order they were raised */
const alerts = (team: string, kind: string) => {
  const o = slackAlertOccurrences;
  return recordRows(o, and(eq(o.teamId, team), eq(o.kind, kind)), { id: o.id, detail: o.detail });
};

async function setup(team: string, workspace: string) {
  await installSlack(team, workspace);
  return {
    admin: await token(team, undefined, { sub: `admin-${team}` }),
    worker: await token(team, undefined, { sub: `worker-${team}` }),
  };
}

describe("board ops alerts", () => {
  it("backpressure: refused twice in a window → one alert; the next window → another", async () => {
    const team = "board-alert-bp";
    const t = await setup(team, "T0BOARDBP");
    await call("PUT", "/v1/board/settings", { token: t.admin, body: { max_ready: 1 } });
    expect((await call("POST", "/v1/runs", { token: t.worker, body: { goal: "g", items: [item("a")] } })).status).toBe(
      201,
    );
    const more = () => call("POST", "/v1/runs", { token: t.worker, body: { goal: "more", items: [item("b")] } });
    expect((await more()).status).toBe(429);
    expect((await more()).status).toBe(429);
    const once = await alerts(team, "board_backpressure");
    expect(once).toHaveLength(1);
    expect(once[0]?.detail).toContain("1 ready items (max_ready 1)");
    await moveBoardClock(team, ALERT_WINDOW_MS);
    expect((await more()).status).toBe(429);
    expect((await more()).status).toBe(429);
    expect(await alerts(team, "board_backpressure")).toHaveLength(2);
  });

  it("token rate: leases waiting twice in a window → one alert; the next window → another", async () => {
    const team = "board-alert-tokens";
    const t = await setup(team, "T0BOARDTK");
    await call("PUT", "/v1/board/settings", { token: t.admin, body: { max_tokens_per_hour: 100 } });
    const run = await call("POST", "/v1/runs", { token: t.worker, body: { goal: "g", items: [item("a"), item("b")] } });
    expect(run.status, run.text).toBe(201);
    const leaseNext = () => call("POST", "/v1/orders/lease-next", { token: t.worker, body: { worker_id: "w" } });
    const a = (await leaseNext()).json;
    const done = await call("POST", `/v1/runs/${a.run_id}/orders/${a.order_id}/complete`, {
      token: t.worker,
      body: { lease_id: a.lease_id, epoch: a.epoch, op_id: "op-a", outcome: "PASS", tokens_in: 150 },
    });
    expect(done.status, done.text).toBe(200);
    expect(await alerts(team, "board_token_rate")).toHaveLength(0);
    expect((await leaseNext()).status).toBe(204);
    expect((await leaseNext()).status).toBe(204);
    const once = await alerts(team, "board_token_rate");
    expect(once).toHaveLength(1);
    expect(once[0]?.detail).toContain("150 tokens in the last hour (max_tokens_per_hour 100)");
    await moveBoardClock(team, ALERT_WINDOW_MS);
    expect((await leaseNext()).status).toBe(204);
    expect(await alerts(team, "board_token_rate")).toHaveLength(2);
  });

  it("a disabled persona's items: no alert before the team's setting, one by the alarm after it, one per window", async () => {
    const team = "board-alert-persona";
    const t = await setup(team, "T0BOARDPW");
    await call("PUT", "/v1/personas/extractor", {
      token: t.admin,
      body: { name: "Extractor", concurrency_limit: 1, enabled: false },
    });
    await call("PUT", "/v1/board/settings", { token: t.admin, body: { persona_wait_alert_ms: 20 * MIN } });
    const run = await call("POST", "/v1/runs", {
      token: t.worker,
      body: { goal: "g", items: [item("x", { persona_id: "extractor" })] },
    });
    expect(run.status, run.text).toBe(201);
    // armed for when the item will have waited 20 minutes
    const armed = await runInDurableObject(boardOf(team), (_i: BoardDO, state) => state.storage.getAlarm());
    expect(armed).toBeGreaterThan(Date.now() + 19 * MIN);
    await moveBoardClock(team, 10 * MIN);
    await runDurableObjectAlarm(boardOf(team));
    expect(await alerts(team, "board_persona_waiting")).toHaveLength(0);
    await moveBoardClock(team, 21 * MIN);
    await runDurableObjectAlarm(boardOf(team));
    await runDurableObjectAlarm(boardOf(team));
    const once = await alerts(team, "board_persona_waiting");
    expect(once).toHaveLength(1);
    expect(once[0]?.detail).toContain("extractor (1 ready, oldest 21 min)");
    await moveBoardClock(team, 21 * MIN + ALERT_WINDOW_MS);
    await runDurableObjectAlarm(boardOf(team));
    expect(await alerts(team, "board_persona_waiting")).toHaveLength(2);
    // enabled again: nothing waits, nothing more is alerted
    const enabled = await call("PUT", "/v1/personas/extractor", {
      token: t.admin,
      body: { name: "Extractor", concurrency_limit: 1, enabled: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    await moveBoardClock(team, 21 * MIN + 2 * ALERT_WINDOW_MS);
    await runDurableObjectAlarm(boardOf(team));
    expect(await alerts(team, "board_persona_waiting")).toHaveLength(2);
  });
});
