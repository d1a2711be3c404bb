// A real loopback HTTP server standing in for Slack's Web API in tests: records every request, answers from a script.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: any };
export type ScriptedReply = { status: number; headers?: Record<string, string>; body: unknown };

export type SlackApiServer = {
  url: string;
  requests: RecordedRequest[];
  /** replies used in order before the default one (per path; "*" for any path) */
  script(path: string, ...replies: ScriptedReply[]): void;
  close(): Promise<void>;
};

/** Control paths (not Slack's): POST script {path, replies}, GET requests, POST reset {prefix} — test/slack-api-remote.ts. */
export const CONTROL = "/__control/";

export async function startSlackApiServer(): Promise<SlackApiServer> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, ScriptedReply[]>();
  let seq = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {}
      const path = req.url ?? "/";
      // the control paths let a workerd test (which cannot start a server) script and read this server over HTTP
      if (path.startsWith(CONTROL)) return control(path.slice(CONTROL.length), body as any, res);
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const queue = scripts.get(path) ?? scripts.get("*");
      const scripted = queue?.shift();
      const reply: ScriptedReply = scripted ?? {
        status: 200,
        body: { ok: true, channel: (body as any)?.channel ?? "C0", ts: `1700000000.${String(++seq).padStart(6, "0")}` },
      };
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  function control(
    what: string,
    body: { path?: string; replies?: ScriptedReply[]; prefix?: string },
    res: ServerResponse,
  ) {
    if (what === "script" && body.path && body.replies)
      scripts.set(body.path, [...(scripts.get(body.path) ?? []), ...body.replies]);
    if (what === "reset") {
      // only the paths under `prefix`: test files running at the same time share the server
      const mine = (path: string) => path.startsWith(body.prefix ?? "");
      const kept = requests.filter((r) => !mine(r.path));
      requests.splice(0, requests.length, ...kept);
      for (const path of [...scripts.keys()]) if (mine(path)) scripts.delete(path);
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(what === "requests" ? requests.map(({ headers: _h, ...r }) => r) : { ok: true }));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    requests,
    script: (path, ...replies) => scripts.set(path, [...(scripts.get(path) ?? []), ...replies]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
