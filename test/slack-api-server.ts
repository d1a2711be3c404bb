// A real loopback HTTP server standing in for Slack's Web API in tests: records every request, answers from a script;
// workerd tests reach it through its control paths (test/slack-loopback.ts).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
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
      // the control API a workerd test (which cannot reach this object) scripts and reads the server with
      if (path === "/__control/script" && req.method === "POST") {
        const { path: scripted, replies } = body as { path: string; replies: ScriptedReply[] };
        scripts.set(scripted, [...(scripts.get(scripted) ?? []), ...replies]);
        res.writeHead(204).end();
        return;
      }
      if (path.startsWith("/__control/requests?")) {
        const prefix = new URL(path, "http://x").searchParams.get("prefix") ?? "/";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(requests.filter((r) => r.path.startsWith(prefix))));
        return;
      }
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    requests,
    script: (path, ...replies) => scripts.set(path, [...(scripts.get(path) ?? []), ...replies]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
