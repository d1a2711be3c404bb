// Test-only: an HTTP server speaking Upstash's documented REST protocol in front of a real redis-server.
// Single commands (POST / with a JSON array, or GET /CMD/arg/…), pipelines (POST /pipeline), transactions
// (POST /multi-exec), bearer auth, and `Upstash-Encoding: base64` answers — enough for @upstash/redis, and so for
// @upstash/ratelimit's own Lua scripts (EVAL, EVALSHA and its NOSCRIPT fallback) to run against Redis itself.
// Upstash's scripts open with `#!lua flags=allow-key-locking`, a flag of Upstash's server that open-source Redis
// refuses ("Unexpected flag in script shebang"): the bridge drops that one flag, as Upstash's dialect is the
// protocol here, and maps the script's original SHA-1 to the loaded one so EVALSHA keeps working.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type RespClient, RespError, type RespValue, respConnect } from "./resp";

export type Bridge = {
  url: string;
  /** While down, every request fails with 503 (a limiter outage, as a client sees it). */
  setDown(down: boolean): void;
  /** Requests answered so far (the bench reports it). */
  requests(): number;
  close(): Promise<void>;
};

type Reply = { result: unknown } | { error: string };

function encode(v: RespValue, base64: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => encode(x, base64));
  if (typeof v === "string" && base64) return Buffer.from(v, "utf8").toString("base64");
  return v;
}

const toReply = (v: RespValue, base64: boolean): Reply =>
  v instanceof RespError ? { error: v.message } : { result: encode(v, base64) };

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let s = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (s += d));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });

const isCommand = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0 && typeof v[0] === "string";
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
const UPSTASH_FLAG = /^#!lua flags=allow-key-locking\n/;
/** original script SHA-1 → SHA-1 of the script Redis actually holds */
const shaMap = new Map<string, string>();

/** Rewrites Upstash-only script flags and translates EVALSHA to the SHA of the rewritten script. */
function args(cmd: unknown[]): string[] {
  const a = cmd.map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
  const name = (a[0] ?? "").toUpperCase();
  const scriptAt =
    name === "EVAL" || name === "EVAL_RO" ? 1 : name === "SCRIPT" && a[1]?.toUpperCase() === "LOAD" ? 2 : -1;
  const script = a[scriptAt];
  if (script !== undefined && UPSTASH_FLAG.test(script)) {
    const rewritten = script.replace(UPSTASH_FLAG, "#!lua\n");
    shaMap.set(sha1(script), sha1(rewritten));
    a[scriptAt] = rewritten;
  }
  if ((name === "EVALSHA" || name === "EVALSHA_RO") && a[1]) a[1] = shaMap.get(a[1].toLowerCase()) ?? a[1];
  return a;
}

export async function startUpstashBridge(o: { redisPort: number; token: string }): Promise<Bridge> {
  const shared: RespClient = await respConnect(o.redisPort);
  let down = false;
  let count = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    count++;
    if (down) return send(res, 503, { error: "service unavailable (bridge is down)" });
    if (req.headers.authorization !== `Bearer ${o.token}`) return send(res, 401, { error: "Unauthorized" });
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const text = req.method === "POST" ? await readBody(req) : "";
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      return send(res, 400, { error: "ERR failed to parse command" });
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      if (!Array.isArray(body) || !body.every(isCommand)) return send(res, 400, { error: "ERR invalid pipeline" });
      if (path === "/pipeline") {
        const replies = await Promise.all(body.map((c) => shared.send(args(c))));
        return send(
          res,
          200,
          replies.map((r) => toReply(r, base64)),
        );
      }
      const own = await respConnect(o.redisPort);
      try {
        await own.send(["MULTI"]);
        for (const c of body) await own.send(args(c));
        const exec = await own.send(["EXEC"]);
        if (!Array.isArray(exec)) return send(res, 400, toReply(exec, base64));
        return send(
          res,
          200,
          exec.map((r) => toReply(r, base64)),
        );
      } finally {
        own.close();
      }
    }
    const cmd = path === "/" ? body : path.slice(1).split("/").map(decodeURIComponent);
    if (!isCommand(cmd)) return send(res, 400, { error: "ERR expected a command as a JSON array" });
    const reply = toReply(await shared.send(args(cmd)), base64);
    return send(res, "error" in reply ? 400 : 200, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => send(res, 500, { error: String(e) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setDown: (d) => {
      down = d;
    },
    requests: () => count,
    close: () =>
      new Promise((resolve) => {
        shared.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
