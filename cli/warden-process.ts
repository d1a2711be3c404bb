// The real `warden` process for the CLI tests: `node cli/warden.mjs …` with none of the caller's Warden settings.
import { execFile } from "node:child_process";
import { join } from "node:path";

const bin = join(import.meta.dirname, "warden.mjs");

/** `json`: whatever JSON the command printed on stdout (tests read into it freely) */
export type WardenResult = { code: number; stdout: string; stderr: string; json: any };

/**
 * Runs `warden <args>` in `cwd`. WARDEN_TOKEN, WARDEN_API_KEY, WARDEN_AGENT_ID and WARDEN_MEMORY of this process never
 * leak in; `env` sets (or, with undefined, clears) variables on top.
 */
export function runWarden(args: string[], env: Record<string, string | undefined>, cwd: string): Promise<WardenResult> {
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      WARDEN_TOKEN: undefined,
      WARDEN_API_KEY: undefined,
      WARDEN_AGENT_ID: undefined,
      WARDEN_MEMORY: undefined,
    };
    for (const [k, v] of Object.entries(env)) childEnv[k] = v;
    execFile(process.execPath, [bin, ...args], { cwd, env: childEnv, encoding: "utf8" }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code: typeof code === "number" ? code : 1, stdout, stderr, json });
    });
  });
}
