// npm start: local secrets, local D1 migrations, then `wrangler dev --test-scheduled` (port 8787 unless --port is given).
import { spawn, spawnSync } from "node:child_process";
import { ensureDevVars } from "./dev-vars.mjs";

ensureDevVars();
const args = process.argv.slice(2);
const wrangler = (wranglerArgs, opts = {}) =>
  spawnSync("npx", ["--no-install", "wrangler", ...wranglerArgs], { stdio: "inherit", ...opts });

const persist = args.includes("--persist-to") ? ["--persist-to", args[args.indexOf("--persist-to") + 1]] : [];
const migrated = wrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], {
  env: { ...process.env, CI: "true" },
});
if (migrated.status !== 0) process.exit(migrated.status ?? 1);

const devArgs = ["dev", "--test-scheduled", ...(args.includes("--port") ? [] : ["--port", "8787"]), ...args];
const dev = spawn("npx", ["--no-install", "wrangler", ...devArgs], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => dev.kill(sig));
dev.on("exit", (code) => process.exit(code ?? 0));
