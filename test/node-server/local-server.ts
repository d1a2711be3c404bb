// Local Warden servers for process-level tests (`*.node.test.ts`): `npm start` on free ports, ready once /healthz
// answers. The tests share the ONE server the node-server project's global setup starts (`sharedServerUrl()`).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** base URL of the server test/node-server/global-setup.ts started for the node-server project */
    wardenUrl: string;
  }
}

const root = join(import.meta.dirname, "..", "..");

/** A port nothing listens on right now (the OS picks it; closed again before use). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type LocalServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** its own D1/DO state (`--persist-to`), removed by stop() */
  persist: string;
  stop(): void;
};

/**
 * Runs `npm start -- --port <free> --ip 127.0.0.1 --inspector-port <free> --persist-to <fresh dir>` and returns at
 * once; `ready` resolves once /healthz answers 200 and rejects (after stopping it) when it does not within
 * `deadlineMs`. Its own inspector port, so servers of several tests can run at once (wrangler's default inspector
 * port would collide).
 */
export async function spawnLocalServer(
  opts: { name?: string; deadlineMs?: number } = {},
): Promise<LocalServer & { ready: Promise<void> }> {
  const [port, inspector] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const persist = mkdtempSync(join(tmpdir(), `warden-${opts.name ?? "server"}-`));
  const args = ["--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspector)];
  // detached: its own process group, so stop() ends npm, wrangler and workerd together
  const child = spawn("npm", ["start", "--", ...args, "--persist-to", persist], {
    cwd: root,
    stdio: "ignore",
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {}
    rmSync(persist, { recursive: true, force: true });
  };
  // generous: on a loaded 2-core machine wrangler's start alone has taken over 150 s
  const deadlineMs = opts.deadlineMs ?? 300_000;
  const ready = waitForHealth(url, deadlineMs, () => child.exitCode).catch((error) => {
    stop();
    throw error;
  });
  ready.catch(() => {}); // a caller that never awaits `ready` must not see an unhandled rejection
  return { url, persist, stop, ready };
}

/** Resolves once `${url}/healthz` answers 200; rejects past the deadline or when `exitCode()` says the server ended. */
export async function waitForHealth(url: string, deadlineMs: number, exitCode: () => number | null = () => null) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    if (exitCode() !== null || Date.now() > deadline)
      throw new Error(`npm start did not serve /healthz within ${deadlineMs / 1000} s (exit code ${exitCode()})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The shared server's URL; only in the node-server project (vitest.config.ts), whose global setup starts it without
 * waiting (its start-up overlaps the workers tests): call `sharedServerReady` in a `beforeAll` before using it.
 */
export function sharedServerUrl(): string {
  const url = inject("wardenUrl");
  if (!url) throw new Error("no shared server: this file must be in the node-server project (vitest.config.ts)");
  return url;
}

/** Waits until the shared server answers /healthz (a `beforeAll` of every file that uses it). */
export const sharedServerReady = () => waitForHealth(sharedServerUrl(), 300_000);
/** `beforeAll`'s time limit for `sharedServerReady`, just past its own deadline. */
export const SHARED_SERVER_WAIT_MS = 310_000;
