// runCli reads and writes only the io it is given (env, cwd, streams): never the process's, nor another run's.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jwtVerify } from "jose";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { CliEnv } from "./io.ts";
import { runCli } from "./main.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "warden-runcli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function run(argv: string[], env: CliEnv, cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    env: { XDG_CONFIG_HOME: tempDir(), ...env },
    cwd,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe("runCli", () => {
  it("takes WARDEN_* from its env only: the process's variables and streams are never used", async () => {
    vi.stubEnv("WARDEN_URL", "http://127.0.0.1:1");
    vi.stubEnv("WARDEN_TOKEN", "from-the-process");
    const written = vi.spyOn(process.stdout, "write");
    const r = await run(
      ["--verbose", "runs", "status", "run_x"],
      { WARDEN_URL: "http://127.0.0.1:9", WARDEN_TOKEN: "t" },
      tempDir(),
    );
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stderr.split("\n")[0] as string)).toMatchObject({
      server: "http://127.0.0.1:9",
      server_from: "WARDEN_URL",
      credentials: "WARDEN_TOKEN",
    });
    const none = await run(["runs", "status", "run_x"], {}, tempDir());
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stderr).error.message).toMatch(/no server given/);
    expect(written).not.toHaveBeenCalled();
  });

  it("a flag wins over the env's variable, as in commander", async () => {
    const r = await run(
      ["--verbose", "--url", "http://127.0.0.1:9", "runs", "status", "run_x"],
      { WARDEN_URL: "http://127.0.0.1:1", WARDEN_TOKEN: "t" },
      tempDir(),
    );
    expect(JSON.parse(r.stderr.split("\n")[0] as string)).toMatchObject({
      server: "http://127.0.0.1:9",
      server_from: "--url",
    });
  });

  it("two runs at once in one process keep their own cwd (.dev.vars), env and output", async () => {
    const secrets = ["ab".repeat(32), "cd".repeat(32)];
    const cwds = secrets.map((secret) => {
      const dir = tempDir();
      writeFileSync(join(dir, ".dev.vars"), `WARDEN_JWT_SECRET=${secret}\n`);
      return dir;
    });
    const minted = await Promise.all(
      cwds.map((cwd, i) => run(["token", "mint", "--team-id", `t-${i}`, "--json"], {}, cwd)),
    );
    for (const [i, r] of minted.entries()) {
      expect(r.code, r.stderr).toBe(0);
      const { payload } = await jwtVerify(JSON.parse(r.stdout).token, new TextEncoder().encode(secrets[i]));
      expect(payload.team_id).toBe(`t-${i}`);
    }
  });
});
