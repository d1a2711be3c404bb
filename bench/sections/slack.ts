// Bench: the ack latency of a signed POST /slack/interactions (signature check, workspace lookup) against GET /healthz.
import { slackSignature } from "../../src/features/slack/signature";
import { alternate, BENCH_SLACK_SECRET, type BenchSection, load } from "../harness";

export const slackSection: BenchSection = {
  name: "slack",
  async run({ server }) {
    // A click from a workspace with no installation: verified, looked up in D1, acknowledged (no outbox work).
    const payload = {
      type: "block_actions",
      team: { id: "TBENCH" },
      user: { id: "UBENCH" },
      actions: [{ action_id: "gate_deny", value: "{}", action_ts: "1700000000.000001" }],
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": ts,
      "x-slack-signature": await slackSignature(BENCH_SLACK_SECRET, ts, body),
    };
    const [health, ack] = await alternate(
      3,
      () => load(`${server.url}/healthz`, { seconds: 3 }),
      () => load(`${server.url}/slack/interactions`, { method: "POST", headers, body, seconds: 3 }),
    );
    if (ack.non2xx > 0) throw new Error(`/slack/interactions answered ${ack.non2xx} non-2xx responses`);
    return [
      {
        section: "slack",
        metric: "POST /slack/interactions",
        value: ack.rps,
        unit: "req/s",
        ceiling: health.rps,
        ratio: ack.rps / health.rps,
        target: "≥ 0.5× /healthz",
        pass: ack.rps >= 0.5 * health.rps,
      },
      {
        section: "slack",
        metric: "POST /slack/interactions p99",
        value: ack.p99,
        unit: "ms",
        target: "≤ 3000 ms (Slack's ack window)",
        pass: ack.p99 <= 3000,
      },
      { section: "slack", metric: "GET /healthz p99", value: health.p99, unit: "ms" },
    ];
  },
};
