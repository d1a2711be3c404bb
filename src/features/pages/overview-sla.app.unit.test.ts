// The overview page's gate SLA cards: breaches of each SLA and the time to acknowledge, from the team's gate index,
// in Node (D1 stand-in; the gate rows written through the runs feature's drizzle table).
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeHelpers, SECRET } from "../../../test/node-d1/app";
import { mintViewToken } from "../../auth/view-token";
import { gates } from "../runs/store/tables";

const { db, fetch } = await nodeHelpers();

const MIN = 60_000;

async function gateRow(team: string, id: string, openedAt: number, ackedAt: number | null) {
  await drizzle(db)
    .insert(gates)
    .values({
      gateId: id,
      teamId: team,
      runId: "run-x",
      opId: `op-${id}`,
      policyKey: "wrong_value",
      kind: "hard",
      status: "pending",
      openedBy: "worker",
      openedAt,
      updatedAt: openedAt,
      ackedBy: ackedAt === null ? null : "alice",
      ackedAt,
    });
}

describe("the overview's gate SLA cards", () => {
  it("show the 7 days' breaches of each SLA and the time to acknowledge", async () => {
    const now = Date.now();
    await gateRow("po-sla", "g-silent", now - 2 * 60 * MIN, null); // past both SLAs
    await gateRow("po-sla", "g-acked", now - 10 * MIN, now - 8 * MIN); // answered in 2 minutes
    const tok = (await mintViewToken(SECRET, { kind: "team", team_id: "po-sla" }, now)).token;
    const res = await fetch(new Request(`https://warden.test/teams/po-sla/overview?view=${tok}`));
    const html = res.text;
    expect(res.status).toBe(200);
    expect(html).toContain("Gate SLAs (last 7 days)");
    expect(html).toMatch(/data-field="gate_ack_sla_breaches"[^>]*>1</);
    expect(html).toMatch(/data-field="gate_resolve_sla_breaches"[^>]*>1</);
    expect(html).toContain("1 answered gate<");
  });
});
