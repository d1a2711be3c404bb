// Private approval cards (pure core): no card for teams without Slack, ids + policy key + reason bucket + trace link,
// and gate context kept out unless the team shared it (then only guard-passed top-level fields).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACK_ACTION, acknowledgedBlocks, CARD_VERSION, cardKey } from "./blocks";
import { gateCardMessages, guardedContext, reasonBucket } from "./cards";

const base = { team_id: "team-a", run_id: "run_1", op_id: "op-9", policy_key: "wrong_value", occurred_at: 0 };
const opened = (extra: Record<string, unknown> = {}) => ({
  ...base,
  type: "gate.opened",
  gate_id: "g1",
  kind: "hard",
  rule_id: "rules.v3#1",
  opened_by: "worker",
  ...extra,
});
const link = "https://w.example/runs/run_1/trace?view=tok#gate-g1";

describe("gateCardMessages", () => {
  it("rebuilds an API-acknowledged gate's card: same key, the acknowledger and the original reason, no Acknowledge", () => {
    const acked = { ...opened(), type: "gate.acknowledged", acked_by: "carol", acked_at: 1_700_000_000_000 };
    const [card] = gateCardMessages([acked], () => ({ trace_link: link }));
    expect(card).toMatchObject({ kind: "post", key: cardKey("g1"), version: CARD_VERSION.acknowledged });
    const json = JSON.stringify(card);
    expect(json).toContain("*Acknowledged* by carol");
    expect(json).toContain("rules.v3#1");
    expect(json).toContain('"gate_approve"');
    expect(json).not.toContain(`"${ACK_ACTION}"`);
    // without who acknowledged there is nothing to show: no card
    expect(gateCardMessages([{ ...acked, acked_by: undefined }], () => ({ trace_link: link }))).toEqual([]);
  });

  it("shows an enforce promotion's checks line on its policy_deploy card, with no context sharing; other gates never", () => {
    const line = "replay 29/29 changed · ack needed: ack:vibe_fail · parity 4/4 · conformance 21/21";
    const context = { promotion_checks: line, replay: { decisions: 29 } };
    const [deploy, other] = gateCardMessages(
      [opened({ policy_key: "policy_deploy", context }), opened({ gate_id: "g2", context })],
      () => ({ trace_link: link }),
    );
    expect(JSON.stringify(deploy)).toContain(`*Promotion checks* ${line}`);
    expect(JSON.stringify(deploy)).not.toContain("decisions");
    expect(JSON.stringify(other)).not.toContain("Promotion checks");
    expect(JSON.stringify(other)).not.toContain("ack:vibe_fail");
  });

  it("builds cards for soft and hard gates of installed teams only, opened then decided", () => {
    const msgs = gateCardMessages(
      [
        opened(),
        { ...base, type: "gate.opened", gate_id: "g2", kind: "auto" },
        { ...opened(), team_id: "team-no-slack", gate_id: "g3" },
        {
          ...base,
          type: "gate.decided",
          gate_id: "g1",
          kind: "hard",
          status: "denied",
          decision: "deny",
          decided_by: "alice",
          occurred_at: 1767225600000,
        },
      ],
      (e) => (e.team_id === "team-a" ? { trace_link: link } : null),
    );
    expect(msgs.map((m) => m.kind === "post" && [m.key, m.version])).toEqual([
      ["gate:g1", 1],
      ["gate:g1", 3],
    ]);
    expect(JSON.stringify(msgs[1])).toContain(
      "by alice <!date^1767225600^{date_short} {time_secs} ({ago})|2026-01-01T00:00:00Z>",
    );
    expect(JSON.stringify(msgs[1])).not.toContain("gate_approve");
  });

  it("a decided card says what was decided, by whom, when, what it did, and keeps the original reason", () => {
    const decided = (decision: string, status: string, subject_type: string, policy_key: string) =>
      gateCardMessages(
        [
          {
            ...base,
            policy_key,
            type: "gate.decided",
            gate_id: "g1",
            kind: "hard",
            rule_id: "rules.v3#1",
            subject_type,
            status,
            decision,
            decided_by: "alice",
            occurred_at: 1767225600000,
          },
        ],
        () => ({ trace_link: link }),
      )[0] as { text: string; blocks: unknown[] };
    const budget = decided("retry", "approved", "budget", "budget_increase");
    const blocks = JSON.stringify(budget.blocks);
    expect(budget.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "Approved: budget_increase" },
    });
    expect(blocks).toContain("reason `rules.v3#1`");
    expect(blocks).toContain(
      `*Approved* by alice ${"<!date^1767225600^{date_short} {time_secs} ({ago})|2026-01-01T00:00:00Z>"} — the run's budget is raised`,
    );
    for (const wrong of ["Approval needed", "fail_closed", "(retry)"]) expect(blocks).not.toContain(wrong);
    expect(budget.text).toBe("Approved: budget_increase on run run_1 by alice (the run's budget is raised)");
    const denied = decided("deny", "denied", "order", "wrong_value");
    expect(JSON.stringify(denied.blocks)).toContain(
      `*Denied* by alice ${"<!date^1767225600^{date_short} {time_secs} ({ago})|2026-01-01T00:00:00Z>"} — the order is dead-lettered`,
    );
    const timer = decided("auto_allow", "auto_allowed", "order", "schema_invalid");
    expect(timer.blocks[0]).toMatchObject({ text: { text: "Auto-approved: schema_invalid" } });
    expect(timer.text).toContain("by alice");
  });

  it("a soft gate's card counts down to its auto-approval in the reader's own zone (a Slack date token)", () => {
    const [card] = gateCardMessages([opened({ kind: "soft", deadline_at: 1767225672000 })], () => ({
      trace_link: link,
    }));
    expect(JSON.stringify(card)).toContain(
      "*Auto-approves* <!date^1767225672^{date_short} {time_secs} ({ago})|2026-01-01T00:01:12Z>",
    );
  });

  it("shows the policy key, reason bucket, run and op ids and the View trace link", () => {
    const [card] = gateCardMessages([opened({ order_id: "ord-4" })], () => ({ trace_link: link }));
    const text = JSON.stringify(card?.kind === "post" && card.blocks);
    for (const part of ["`wrong_value`", "reason `rules.v3#1`", "`run_1`", "op `op-9`", "order `ord-4`"])
      expect(text).toContain(part);
    expect(text).toContain(`<${link}|View trace>`);
  });

  it("never puts gate context on a card the team did not share it for", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.stringMatching(/^[a-z0-9]{1,20}$/)),
        (raw) => {
          // a marker around each value, so a hit can only come from the context itself
          const context = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, `ctxv_${v}_`]));
          const [card] = gateCardMessages([opened({ context })], () => ({ trace_link: link }));
          expect(JSON.stringify(card)).not.toContain("ctxv_");
        },
      ),
    );
    const secret = { api_key: "AKIAZ7Q3XK2LMNP4RS5T", password: "hunter2-very-secret" };
    const text = JSON.stringify(gateCardMessages([opened({ context: secret })], () => ({ trace_link: link })));
    expect(text).not.toContain("AKIA");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("api_key");
  });

  it("shows the shared fields it is given", () => {
    const [card] = gateCardMessages([opened()], () => ({ trace_link: link, shared_context: { amount: "12.50" } }));
    expect(JSON.stringify(card)).toContain("• amount: 12.50");
  });
});

describe("reasonBucket", () => {
  it("names the routing rule, or fail_closed when none matched", () => {
    expect(reasonBucket("rules.v3#1")).toBe("rules.v3#1");
    expect(reasonBucket("default.unknown_policy_key")).toBe("fail_closed");
    expect(reasonBucket(undefined)).toBe("fail_closed");
    expect(reasonBucket("builtin.policy_deploy")).toBe("policy_deploy");
  });
});

describe("guardedContext", () => {
  it("keeps top-level scalars that pass the memory guard, drops secrets, PII, URLs and nested values", async () => {
    const shared = await guardedContext({
      amount: 12.5,
      currency: "EUR",
      approved_before: false,
      api_key: "AKIAZ7Q3XK2LMNP4RS5T",
      contact: "alice@example.com",
      link: "https://internal.example/doc?id=7",
      nested: { note: "fine" },
      long: "x".repeat(500),
    });
    expect(shared).toEqual({ amount: "12.5", currency: "EUR", approved_before: "false", long: "x".repeat(200) });
  });

  it("gives nothing for a missing or non-object context", async () => {
    expect(await guardedContext(undefined)).toEqual({});
    expect(await guardedContext(["a"])).toEqual({});
    expect(await guardedContext("text")).toEqual({});
  });
});

describe("the Acknowledge button", () => {
  const card = (kind: string) => gateCardMessages([opened({ kind })], () => ({ trace_link: link }))[0];
  it("is on hard gates' cards only (a soft gate decides itself on its timer)", () => {
    expect(JSON.stringify(card("hard"))).toContain(ACK_ACTION);
    expect(JSON.stringify(card("soft"))).not.toContain(ACK_ACTION);
  });

  it("is replaced by one line saying who is on it, however often the card is acknowledged", () => {
    const c = card("hard");
    const blocks = c?.kind === "post" ? (c.blocks ?? []) : [];
    const ack = { by: "alice", slack_user_id: "U0ALICE", at: 1767225600000, resolve_due_at: 1767229200000 };
    const once = acknowledgedBlocks(blocks, ack);
    const twice = acknowledgedBlocks(once, ack);
    expect(twice).toEqual(once);
    const text = JSON.stringify(once);
    expect(text).not.toContain(ACK_ACTION);
    expect(text).toContain("gate_approve");
    expect(text.match(/\*Acknowledged\* by <@U0ALICE> \(alice\)/g)).toHaveLength(1);
    expect(text).toContain("<!date^1767229200^");
  });
});
