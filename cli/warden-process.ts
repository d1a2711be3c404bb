// `warden` for the CLI tests: in-process through runCli (fast), or the real `node cli/warden.mjs` process (the bin itself).
import { execFile } from "node:child_process";
import { join } from "node:path";
import type { CliOut } from "./io.ts";
import { runCli } from "./main.ts";

const bin = join(import.meta.dirname, "warden.mjs");

/** `json`: whatever JSON the command printed on stdout (tests read into it freely) */
export type WardenResult = { code: number; stdout: string; stderr: string; json: any };

/**
 * The environment of a test's `warden`: this process's, but WARDEN_TOKEN, WARDEN_API_KEY, WARDEN_AGENT_ID and
 * WARDEN_MEMORY never leak in; `env` sets (or, with undefined, clears) variables on top.
 */
function wardenEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const all: Record<string, string | undefined> = {
    ...process.env,
    WARDEN_TOKEN: undefined,
    WARDEN_API_KEY: undefined,
    WARDEN_AGENT_ID: undefined,
    WARDEN_MEMORY: undefined,
  };
  for (const [k, v] of Object.entries(env)) all[k] = v;
  return all;
}

function parsed(code: number, stdout: string, stderr: string): WardenResult {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {}
  return { code, stdout, stderr, json };
}

/** A stream that keeps what is written (not a terminal, like the pipes of a child process). */
function captured(): CliOut & { text: () => string } {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), isTTY: false, text: () => chunks.join("") };
}

/**
 * Runs `warden <args>` in `cwd`, in this process (cli/main.ts runCli with its own env, cwd and streams; stdin is not
 * a terminal), with the environment of wardenEnv. Same answer as runWardenProcess, without a Node start-up per command.
 */
export async function runWarden(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<WardenResult> {
  const stdout = captured();
  const stderr = captured();
  const code = await runCli(args, { env: wardenEnv(env), cwd, stdout, stderr });
  return parsed(code, stdout.text(), stderr.text());
}

/** Runs `warden <args>` in `cwd` as the real process, `node cli/warden.mjs` (the bin's own tests). */
export function runWardenProcess(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<WardenResult> {
  return new Promise((resolve) => {
    const childEnv = wardenEnv(env) as NodeJS.ProcessEnv;
    execFile(process.execPath, [bin, ...args], { cwd, env: childEnv, encoding: "utf8" }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve(parsed(typeof code === "number" ? code : 1, stdout, stderr));
    });
  });
}
