// The policy store's read of policy_decision, the D1 table decisions were logged in before the R2 decision log (issue
// 27): nothing writes it any more (read only, docs/storage.md), so its legacy rows are seeded here with raw SQL, in the
// store's own test, in Node over the D1 stand-in.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { loggedDecision } from "../../../../test/decision-log-fixture";
import { nodeD1 } from "../../../../test/node-d1/d1";
import { HOUR_MS } from "../decision-log-layout";
import { createD1PolicyStore } from "./policy-store";

const db = await nodeD1();
const store = createD1PolicyStore(drizzle(db));

/** one row as the D1 decision log wrote it (its ceiling in inputs._ceiling) */
async function legacyRow(id: string, team: string, createdAt: number) {
  await db
    .prepare(
      `INSERT INTO policy_decision (decision_id, team_id, inputs_digest, inputs, profile_version, requested_mode,
         effective_mode, rule_id, raw_action, selected_action, created_at)
       VALUES (?, ?, 'd', '{"_ceiling":"observe"}', 0, 'enforce', 'enforce', 'enforce.vibe_fail.middle', 'retry', 'retry', ?)`,
    )
    .bind(id, team, createdAt)
    .run();
}

describe("createD1PolicyStore.loggedDecisions", () => {
  it("reads the decisions logged in policy_decision before the move: the caller's team, from the window's start, oldest first, at most the limit", async () => {
    const team = "team-dlog-legacy";
    const now = Date.now();
    await legacyRow("old-1", team, now - 2000);
    await legacyRow("older", team, now - 2 * HOUR_MS);
    await legacyRow("other-team", "team-dlog-other", now - 1000);
    const read = await store.loggedDecisions(team, now - HOUR_MS, 100);
    // the row as a logged decision: the ceiling out of inputs, the columns the old rows lacked as null
    expect(read).toEqual([
      loggedDecision(team, "old-1", now - 2000, {
        inputs: {},
        inputs_digest: "d",
        ceiling: "observe",
        failure_class: null,
        attempt_bucket: null,
      }),
    ]);
    expect((await store.loggedDecisions(team, now - 3 * HOUR_MS, 1)).map((d) => d.decision_id)).toEqual(["older"]);
  });
});
