// Gate and Slack tests in Node: events delivered to the EVENTS consumer over chosen deps, Slack installed for a team, and
// a team's audit entries of one type read through GET /v1/audit (what test/learning.ts and test/slack.ts give workerd).
import { expect } from "vitest";
import type { Deps } from "../../src/deps";
import { consumeEvents } from "../../src/features/events/consumer";
import { installationBody } from "../slack-bodies";
import type { nodeHelpers } from "./app";
import { deliverBatch } from "./consumers";

type Helpers = Pick<Awaited<ReturnType<typeof nodeHelpers>>, "call" | "token" | "drainAll" | "deps">;
export type AuditedEntry = { id: string; actor: string; subject_id: string; metadata: Record<string, unknown> };

export function nodeGateTools({ call, token, drainAll, deps }: Helpers) {
  return {
    /** one batch to the EVENTS consumer over `deps` (test/learning.ts's deliver) */
    deliver: (deps: Deps, bodies: unknown[]) =>
      deliverBatch("warden-events", bodies, 1, (batch) => consumeEvents(batch, deps)),
    /** PUT /v1/slack/installation for the team, once per file (test/slack.ts's installSlack: a second PUT would wait
     * behind a slack_channel_change gate) */
    async installSlack(teamId: string, workspace?: string) {
      if (await deps.slackStore.byTeam(teamId)) return;
      const res = await call("PUT", "/v1/slack/installation", {
        token: await token(teamId, ["policy:admin"], { sub: "admin" }),
        body: installationBody(workspace),
      });
      expect(res.status, res.text).toBe(200);
    },
    /** the team's audit entries of one type, newest first, as GET /v1/audit lists them (after every outbox flushed) */
    async audited(teamId: string, type: string): Promise<AuditedEntry[]> {
      await drainAll();
      const res = await call("GET", `/v1/audit?type=${type}&limit=100`, { token: await token(teamId, ["runs:read"]) });
      expect(res.status, res.text).toBe(200);
      return res.json.entries;
    },
  };
}
