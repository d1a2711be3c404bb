// The loopback Slack Web API server seen from a workerd test: a base URL of the test's own (a path prefix, so files
// sharing the server never see each other's requests), scripted replies and the requests it received.
import { inject } from "vitest";
import type { RecordedRequest, ScriptedReply } from "./slack-api-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of the loopback Slack server (test/slack-api-global-setup.ts) */
    slackApiOrigin: string;
  }
}

export type LoopbackSlack = {
  /** SLACK_API_BASE_URL for this test's deps */
  base: string;
  /** replies for one Web API method, used in order before the default `{ok: true}` */
  script(method: string, ...replies: ScriptedReply[]): Promise<void>;
  /** the requests to this test's base, oldest first, optionally for one method only */
  requests(method?: string): Promise<RecordedRequest[]>;
};

/** `origin`: the server's http://127.0.0.1:<port> (a Node test starts its own with startSlackApiServer) */
export function loopbackSlack(origin = inject("slackApiOrigin")): LoopbackSlack {
  const prefix = `/${crypto.randomUUID()}/api/`;
  return {
    base: `${origin}${prefix}`,
    async script(method, ...replies) {
      const res = await fetch(`${origin}/__control/script`, {
        method: "POST",
        body: JSON.stringify({ path: `${prefix}${method}`, replies }),
      });
      if (res.status !== 204) throw new Error(`loopback script → ${res.status} ${await res.text()}`);
    },
    async requests(method) {
      const res = await fetch(`${origin}/__control/requests?prefix=${encodeURIComponent(prefix + (method ?? ""))}`);
      return (await res.json()) as RecordedRequest[];
    },
  };
}
