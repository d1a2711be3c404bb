#!/usr/bin/env node
// The `warden` bin: runs cli/main.ts with Node's built-in type stripping (Node ≥ 22.18: no compile step, no tsx start-up).
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
  const { run } = await import("./main.ts");
  process.exitCode = await run(process.argv.slice(2));
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
