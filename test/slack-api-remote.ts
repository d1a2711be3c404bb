// The loopback Slack API server seen from a workerd test: its base URL, and scripting/reading it over its control paths.
// Each test file names its own path prefix (files running at the same time share the server).
import { inject } from "vitest";
import type { RecordedRequest, ScriptedReply } from "./slack-api-server";
import "./slack-api-global-setup";

export type RemoteSlackApi = {
  /** the base URL to build the Slack client with (createSlackWebApi): the server's /<prefix>/api/ */
  url: string;
  /** replies for `path` under the prefix (e.g. "/api/chat.postMessage"), used in order before the default ok */
  script(path: string, ...replies: ScriptedReply[]): Promise<void>;
  /** every request under the prefix so far, paths without the prefix (headers left out) */
  requests(): Promise<Omit<RecordedRequest, "headers">[]>;
  /** forgets the requests and scripts under the prefix */
  reset(): Promise<void>;
};

export function remoteSlackApi(prefix: string): RemoteSlackApi {
  const base = new URL(inject("slackApiUrl"));
  const root = `/${prefix}`;
  const control = new URL("/__control/", base).toString();
  const post = async (what: string, body: unknown) => {
    const res = await fetch(control + what, { method: "POST", body: JSON.stringify(body) });
    await res.arrayBuffer();
  };
  return {
    url: new URL(`${root}/api/`, base).toString(),
    script: (path, ...replies) => post("script", { path: root + path, replies }),
    requests: async () => {
      const all = (await (await fetch(`${control}requests`)).json()) as Omit<RecordedRequest, "headers">[];
      return all.filter((r) => r.path.startsWith(`${root}/`)).map((r) => ({ ...r, path: r.path.slice(root.length) }));
    },
    reset: () => post("reset", { prefix: `${root}/` }),
  };
}
