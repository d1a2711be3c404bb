// Escalation pings (pure): level 1 re-pings the approvers, level 2 calls the team's escalation target (a user group in
// the thread of the gate's card, a channel with a link to the card), one logical message per gate and level; the
// per-team timings and their validation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESCALATION_AFTER_MS, escalate } from "../gates/escalation";
import type { Gate } from "../gates/model";
import { cardKey } from "./blocks";
import { gateCardMessages } from "./cards";
import { ESCALATION_TARGET, escalationAfterMs, USER_GROUP_ID } from "./escalation";
import { SlackInstallationBody } from "./routes";

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

  it("posts level 2 to a channel target with a link to the card (not threaded); level 1 stays in the thread", () => {
    const [l1, l2] = gateCardMessages([escalated(1), escalated(2)], () => ({
      trace_link: link,
      escalation_target: "C0ESCAL",
    }));
    if (l1?.kind !== "post" || l2?.kind !== "post") throw new Error("expected posts");
    expect(l1).toMatchObject({ channel: "approvals", thread_key: cardKey("g1") });
    expect(l1.channel_id).toBeUndefined();
    expect(l2).toMatchObject({ key: "escalation:g1:2", channel_id: "C0ESCAL", link_key: cardKey("g1") });
    expect(l2.thread_key).toBeUndefined();
    expect(l2.text).toContain(link);
    expect(l2.text).not.toContain("subteam");
  });

  it("accepts user groups and channels as the escalation target, nothing else", () => {
    for (const good of ["S0ESCAL8", "C0CHAN", "G0PRIV"]) expect(ESCALATION_TARGET.test(good)).toBe(true);
    for (const bad of ["U123", "D0DM", "C", "c0abc", "C0ABC>|x", ""]) expect(ESCALATION_TARGET.test(bad)).toBe(false);
  });
});

describe("escalation timings", () => {
  const body = (settings: Record<string, unknown>) => ({
    workspace_id: "T0A",
    bot_token: "xoxb-1111-2222-abcdefghijkl",
    channels: { control: "C0A", approvals: "C0B", feed: "C0C", ops: "C0D" },
    approvers: [{ slack_user_id: "U0A", subject: "a", role: "admin" }],
    settings,
  });

  it("validates escalation_minutes: 1 ≤ first < second ≤ 1440, two whole numbers", () => {
    for (const ok of [
      [1, 2],
      [15, 60],
      [1439, 1440],
    ])
      expect(SlackInstallationBody.safeParse(body({ escalation_minutes: ok })).success).toBe(true);
    for (const bad of [[0, 5], [5, 5], [10, 5], [1, 1441], [1.5, 3], [5], [1, 2, 3], "15,60", [-1, 2]])
      expect(SlackInstallationBody.safeParse(body({ escalation_minutes: bad })).success, JSON.stringify(bad)).toBe(
        false,
      );
    for (const bad of ["U0USER", "#general"])
      expect(SlackInstallationBody.safeParse(body({ escalation_target: bad })).success).toBe(false);
  });

  it("fires each level once at the gate's own timings, in order, whenever the alarm runs", () => {
    const gate = (after: [number, number] | undefined): Gate =>
      ({ status: "pending", kind: "hard", opened_at: 1000, ...(after ? { escalate_after_ms: after } : {}) }) as Gate;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1439 }).chain((a) => fc.tuple(fc.constant(a), fc.integer({ min: a + 1, max: 1440 }))),
        fc.integer({ min: 0, max: 1500 * 60_000 }),
        (minutes, late) => {
          const after = escalationAfterMs(minutes) as [number, number];
          const { fired } = escalate(gate(after), 1000 + late);
          const due = after.filter((ms) => ms <= late).length;
          expect(fired.map((e) => e.level)).toEqual([1, 2].slice(0, due));
          expect(fired.map((e) => e.at)).toEqual(after.slice(0, due).map((ms) => 1000 + ms));
        },
      ),
    );
    // no timings on the gate: the defaults
    expect(escalate(gate(undefined), 1000 + ESCALATION_AFTER_MS[2]).fired.map((e) => e.at)).toEqual([
      1000 + ESCALATION_AFTER_MS[1],
      1000 + ESCALATION_AFTER_MS[2],
    ]);
    expect(escalationAfterMs(undefined)).toBeNull();
  });
});
