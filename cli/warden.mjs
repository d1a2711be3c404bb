#!/usr/bin/env node
// The `warden` bin: cli/main.ts `runCli` over this process's env, cwd and streams (Node ≥ 22.18 type stripping, no build).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major > 22 || (major === 22 && minor >= 18)) {
  // Type stripping is on by default from 22.18; its one-line ExperimentalWarning would only clutter stderr.
  const emit = process.emitWarning;
  process.emitWarning = (w, ...rest) =>
    String(w).includes("Type Stripping") || rest[0] === "ExperimentalWarning"
      ? undefined
      : emit.call(process, w, ...rest);
  const { runCli } = await import("./main.ts");
  const io = {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    // read only when a bulk action asks to confirm (touching process.stdin opens it)
    get stdin() {
      return process.stdin;
    },
  };
  // exitCode, not exit(): a piped stdout is flushed before the process ends
  process.exitCode = await runCli(process.argv.slice(2), io);
} else {
  // An older system Node (e.g. 20): re-run with the package's own Node 22 (the `node` devDependency).
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const node22 = join(root, "node_modules/node/bin/node");
  if (!existsSync(node22)) {
    console.error(`warden needs Node >= 22.18 (found ${process.versions.node}); run \`npm install\` in ${root}`);
    process.exit(2);
  }
  const r = spawnSync(node22, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
