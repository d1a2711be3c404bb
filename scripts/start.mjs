// npm start: local secrets, local D1 migrations, then `wrangler dev --test-scheduled` (port 8787 unless --port is given).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ensureDevVars } from "./dev-vars.mjs";
import { applyLocalMigrations } from "./local-d1.mjs";
import { publicUrlFor, startOutputFilter, wranglerDevArgs } from "./start-lib.mjs";

const devVars = ensureDevVars();
const args = process.argv.slice(2);
// local only: no usage metrics and no update lookups (offline they fail with network stack traces)
const quiet = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_UPDATE_NOTIFIER: "1" };

const persistTo = args.includes("--persist-to") ? args[args.indexOf("--persist-to") + 1] : undefined;
// applied in one runtime (scripts/local-d1.mjs): `wrangler d1 migrations apply --local` starts one per migration
try {
  const applied = await applyLocalMigrations({ persistTo });
  console.log(
    applied.length === 0
      ? "local D1: migrations up to date"
      : `local D1: applied ${applied.length} migration(s): ${applied.join(", ")}`,
  );
} catch (e) {
  console.error(`local D1 migrations failed: ${e.message}`);
  process.exit(1);
}

const { url, source } = publicUrlFor(args, process.env, devVars);
console.log(
  `PUBLIC_URL: ${url} (${source === "port" ? "from the port served; set PUBLIC_URL to override" : `from ${source}`}): card and trace links point here`,
);
const dev = spawn("npx", ["--no-install", "wrangler", ...wranglerDevArgs(args, process.env, devVars)], {
  stdio: ["inherit", "pipe", "pipe"],
  env: quiet,
});
// wrangler's own output, one readable line per fact (scripts/start-lib.mjs): one filter for both streams
const tidy = startOutputFilter();
for (const [from, to] of [
  [dev.stdout, process.stdout],
  [dev.stderr, process.stderr],
]) {
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    for (const out of tidy(line)) to.write(`${out}\n`);
  });
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => dev.kill(sig));
dev.on("exit", (code) => process.exit(code ?? 0));
