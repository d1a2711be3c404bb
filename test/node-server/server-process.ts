// A local Warden server as a process: `npm start` on free ports over a state directory, ready once /healthz answers;
// stopped (state removed) or killed and restarted on the same state (the crash drill). No vitest in here.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  /** kills the whole process group at once (SIGKILL: no graceful shutdown), keeping the state */
  crash(): void;
  /** starts the server again on the same port and state; resolves once /healthz answers */
  restart(): Promise<void>;
};

/**
 * Runs `npm start -- --port <free> --ip 127.0.0.1 --inspector-port <free> --persist-to <fresh dir>` and returns at
 * once; `ready` resolves once /healthz answers 200 and rejects (after stopping it) when it does not within
 * `deadlineMs`. Its own inspector port, so servers of several tests can run at once (wrangler's default inspector
 * port would collide).
 */
export async function spawnLocalServer(
  /** `log`: a file that gets the server's output (appended across restarts); by default it is dropped */
  opts: { name?: string; deadlineMs?: number; log?: string } = {},
): Promise<LocalServer & { ready: Promise<void> }> {
  const [port, inspector] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const persist = mkdtempSync(join(tmpdir(), `warden-${opts.name ?? "server"}-`));
  const args = ["--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspector)];
  // detached: its own process group, so a signal ends npm, wrangler and workerd together
  const launch = () => {
    const out = opts.log ? openSync(opts.log, "a") : "ignore";
    return spawn("npm", ["start", "--", ...args, "--persist-to", persist], {
      cwd: root,
      stdio: ["ignore", out, out],
      detached: true,
    });
  };
  let child: ChildProcess = launch();
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {}
  };
  const stop = () => {
    signal("SIGTERM");
    rmSync(persist, { recursive: true, force: true });
  };
  // generous: on a loaded 2-core machine wrangler's start alone has taken over 150 s
  const deadlineMs = opts.deadlineMs ?? 300_000;
  const ready = waitForHealth(url, deadlineMs, () => child.exitCode).catch((error) => {
    stop();
    throw error;
  });
  ready.catch(() => {}); // a caller that never awaits `ready` must not see an unhandled rejection
  const crash = () => signal("SIGKILL");
  const restart = async () => {
    // the killed group must be gone before the port and the state are taken again
    await new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve()),
    );
    await new Promise((r) => setTimeout(r, 500));
    child = launch();
    await waitForHealth(url, deadlineMs, () => child.exitCode);
  };
  return { url, persist, stop, crash, restart, ready };
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
