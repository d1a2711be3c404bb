// The overview page's gate SLA cards: breaches of each SLA and the time to acknowledge, from the team's gate index.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { mintViewToken } from "../../auth/view-token";

const MIN = 60_000;

async function gateRow(team: string, id: string, openedAt: number, ackedAt: number | null) {
  await env.DB.prepare(
    "INSERT INTO gate (gate_id, team_id, run_id, op_id, policy_key, kind, status, opened_by, opened_at, updated_at, acked_by, acked_at) VALUES (?, ?, 'run-x', ?, 'wrong_value', 'hard', 'pending', 'worker', ?, ?, ?, ?)",
  )
    .bind(id, team, `op-${id}`, openedAt, openedAt, ackedAt === null ? null : "alice", ackedAt)
    .run();
}

describe("the overview's gate SLA cards", () => {
  it("show the 7 days' breaches of each SLA and the time to acknowledge", async () => {
    const now = Date.now();
    await gateRow("po-sla", "g-silent", now - 2 * 60 * MIN, null); // past both SLAs
    await gateRow("po-sla", "g-acked", now - 10 * MIN, now - 8 * MIN); // answered in 2 minutes
    const tok = (await mintViewToken(env.WARDEN_JWT_SECRET, { kind: "team", team_id: "po-sla" }, now)).token;
    const res = await SELF.fetch(`https://warden.test/teams/po-sla/overview?view=${tok}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("Gate SLAs (last 7 days)");
    expect(html).toMatch(/data-field="gate_ack_sla_breaches"[^>]*>1</);
    expect(html).toMatch(/data-field="gate_resolve_sla_breaches"[^>]*>1</);
    expect(html).toContain("1 answered gate<");
  });
});
