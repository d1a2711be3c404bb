// Escalation pings (pure): level 1 re-pings the approvers, level 2 mentions the team's escalation target, both in the
// thread of the gate's card, one logical message per gate and level.
import { describe, expect, it } from "vitest";
import { cardKey } from "./blocks";
import { gateCardMessages } from "./cards";
import { USER_GROUP_ID } from "./escalation";

const link = "https://w.example/runs/run_1/trace?view=tok#gate-g1";
const escalated = (level: unknown, extra: Record<string, unknown> = {}) => ({
  type: "gate.escalated",
  team_id: "team-a",
  run_id: "run_1",
  op_id: "op-9",
  policy_key: "wrong_value",
  gate_id: "g1",
  kind: "hard",
  rule_id: "rules.v3#1",
  occurred_at: 0,
  level,
  ...extra,
});

describe("escalation pings", () => {
  it("threads level 1 and level 2 under the card in the approvals channel, one key per level", () => {
    const msgs = gateCardMessages([escalated(1), escalated(2)], () => ({
      trace_link: link,
      escalation_target: "S0ESCAL8",
    }));
    expect(msgs).toHaveLength(2);
    const [l1, l2] = msgs;
    if (l1?.kind !== "post" || l2?.kind !== "post") throw new Error("expected posts");
    expect([l1.key, l2.key]).toEqual(["escalation:g1:1", "escalation:g1:2"]);
    expect(l1.thread_key).toBe(cardKey("g1"));
    expect(l2.thread_key).toBe(cardKey("g1"));
    expect(l1.channel).toBe("approvals");
    expect(l1.text).toContain("Approvers");
    expect(l1.text).not.toContain("subteam");
    expect(l2.text).toContain("<!subteam^S0ESCAL8>");
    expect(l2.text).toContain(link);
  });

  it("says so when the team set no escalation target, and pings nobody for teams without Slack or bad levels", () => {
    const [l2] = gateCardMessages([escalated(2)], () => ({ trace_link: link }));
    expect(l2?.kind === "post" && l2.text).toContain("no escalation target set");
    expect(gateCardMessages([escalated(1)], () => null)).toEqual([]);
    expect(gateCardMessages([escalated(3), escalated("1")], () => ({ trace_link: link }))).toEqual([]);
    // auto gates never escalate (and have no card to thread under)
    expect(gateCardMessages([escalated(1, { kind: "auto" })], () => ({ trace_link: link }))).toEqual([]);
  });

  it("accepts only user-group ids as the escalation target", () => {
    expect(USER_GROUP_ID.test("S0ESCAL8")).toBe(true);
    for (const bad of ["C0CHAN", "U123", "S", "s0abc", "S0ABC>|x", ""]) expect(USER_GROUP_ID.test(bad)).toBe(false);
  });
});
