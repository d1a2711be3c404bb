// The loopback Slack API server seen from a workerd test, under a path prefix of the test's own naming: its base URL,
// scripted replies and the requests it received (over the control paths of test/slack-api-server.ts).
import { inject } from "vitest";
import type { RecordedRequest, ScriptedReply } from "./slack-api-server";
import type {} from "./slack-loopback";

export type RemoteSlackApi = {
  /** the base URL to build the Slack client with (createSlackWebApi): the server's /<prefix>/api/ */
  url: string;
  /** replies for `path` under the prefix (e.g. "/api/chat.postMessage"), used in order before the default ok */
  script(path: string, ...replies: ScriptedReply[]): Promise<void>;
  /** the requests under the prefix since the last reset, paths without the prefix (headers left out) */
  requests(): Promise<Omit<RecordedRequest, "headers">[]>;
  /** forgets the requests under the prefix so far */
  reset(): Promise<void>;
};

/** `origin`: the server's http://127.0.0.1:<port> (a Node test starts its own with startSlackApiServer) */
export function remoteSlackApi(prefix: string, origin = inject("slackApiOrigin")): RemoteSlackApi {
  const root = `/${prefix}`;
  let seen = 0;
  const all = async () => {
    const res = await fetch(`${origin}/__control/requests?prefix=${encodeURIComponent(`${root}/`)}`);
    return (await res.json()) as RecordedRequest[];
  };
  return {
    url: `${origin}${root}/api/`,
    async script(path, ...replies) {
      const res = await fetch(`${origin}/__control/script`, {
        method: "POST",
        body: JSON.stringify({ path: root + path, replies }),
      });
      if (res.status !== 204) throw new Error(`loopback script → ${res.status} ${await res.text()}`);
    },
    requests: async () =>
      (await all()).slice(seen).map(({ headers: _, ...r }) => ({ ...r, path: r.path.slice(root.length) })),
    async reset() {
      seen = (await all()).length;
    },
  };
}
