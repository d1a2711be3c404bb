// npm start: local secrets, local D1 migrations, then `wrangler dev --test-scheduled` (port 8787 unless --port is given).
import { spawn, spawnSync } from "node:child_process";
import { ensureDevVars } from "./dev-vars.mjs";

ensureDevVars();
const args = process.argv.slice(2);
// local only: no usage metrics and no update lookups (offline they fail with network stack traces)
const quiet = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_UPDATE_NOTIFIER: "1" };

const persist = args.includes("--persist-to") ? ["--persist-to", args[args.indexOf("--persist-to") + 1]] : [];
// wrangler prints its migration table once per migration: keep its output, print one line, show it all on failure
const migrated = spawnSync(
  "npx",
  ["--no-install", "wrangler", "d1", "migrations", "apply", "DB", "--local", ...persist],
  {
    env: { ...quiet, CI: "true" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  },
);
if (migrated.status !== 0) {
  process.stdout.write(migrated.stdout ?? "");
  process.stderr.write(migrated.stderr ?? "");
  console.error("local D1 migrations failed (output above)");
  process.exit(migrated.status ?? 1);
}
const applied = [...new Set((migrated.stdout ?? "").match(/\d{4}_[\w-]+\.sql/g) ?? [])];
console.log(
  /No migrations to apply/.test(migrated.stdout ?? "")
    ? "local D1: migrations up to date"
    : `local D1: applied ${applied.length} migration(s): ${applied.join(", ")}`,
);

// a local server is not behind Cloudflare: CF-Connecting-IP is whatever a caller sends, so it keys no bucket
const local = ["--var", "BEHIND_CLOUDFLARE:false"];
const devArgs = ["dev", "--test-scheduled", ...local, ...(args.includes("--port") ? [] : ["--port", "8787"]), ...args];
const dev = spawn("npx", ["--no-install", "wrangler", ...devArgs], { stdio: "inherit", env: quiet });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => dev.kill(sig));
dev.on("exit", (code) => process.exit(code ?? 0));
