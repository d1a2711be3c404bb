// Test-only: a throw-away redis-server on a free loopback port (no persistence), plus the Upstash REST bridge to it.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { type Bridge, startUpstashBridge } from "./bridge";
import { respConnect } from "./resp";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type LocalRedis = { port: number; stop(): Promise<void> };

/** Starts `redis-server` (Debian's package; CI installs it) and waits until it answers PING. */
export async function startRedis(): Promise<LocalRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
    { stdio: "ignore" },
  );
  // a missing binary is an 'error' event: without a listener it is an uncaught exception that fails the whole run
  let spawnError: Error | undefined;
  child.once("error", (e) => {
    spawnError = e;
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError)
      throw new Error(`redis-server could not start (${spawnError.message}; apt-get install redis-server)`);
    try {
      const c = await respConnect(port);
      const pong = await c.send(["PING"]);
      c.close();
      if (pong === "PONG") break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("redis-server did not start (is it installed? apt-get install redis-server)");
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Redis plus the bridge: what an Upstash client needs (url, token), and a stop for both. */
export async function startUpstashLike(): Promise<{
  url: string;
  token: string;
  bridge: Bridge;
  stop(): Promise<void>;
}> {
  const redis = await startRedis();
  const token = `test-${crypto.randomUUID()}`;
  const bridge = await startUpstashBridge({ redisPort: redis.port, token });
  return {
    url: bridge.url,
    token,
    bridge,
    stop: async () => {
      await bridge.close();
      await redis.stop();
    },
  };
}
