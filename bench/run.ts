// npm run bench [-- section… | --no-reference]: every section against the Worker served by Miniflare (the measured
// rows, PASS/MISS), then the HTTP sections again through `wrangler dev` for reference; one table, bench/results.json.
import { writeFileSync } from "node:fs";
import { loadavg, uptime } from "node:os";
import {
  type BenchSection,
  benchToken,
  type LocalServer,
  printTable,
  type Row,
  STATE_ROOT,
  startLocalServer,
  startMiniflareServer,
} from "./harness";
import { artifactsSection } from "./sections/artifacts";
import { boardSection } from "./sections/board";
import { guardSection } from "./sections/guard";
import { learningSection } from "./sections/learning";
import { learningValueSection } from "./sections/learning-value";
import { limitsSection } from "./sections/limits";
import { mcpSection } from "./sections/mcp";
import { memorySection } from "./sections/memory";
import { memoryWritesSection } from "./sections/memory-writes";
import { policySection } from "./sections/policy";
import { runsSection } from "./sections/runs";
import { slackSection } from "./sections/slack";

const SECTIONS: BenchSection[] = [
  policySection,
  runsSection,
  learningSection,
  memorySection,
  memoryWritesSection,
  slackSection,
  limitsSection,
  learningValueSection,
  guardSection,
  mcpSection,
  boardSection,
  artifactsSection,
];
/** Sections whose HTTP rows are repeated through `wrangler dev` (the path the first figures came from). */
const REFERENCE = new Set(["policy", "runs", "memory"]);

const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith("--"));
const selected = only.length ? SECTIONS.filter((s) => only.includes(s.name)) : SECTIONS;
const rows: Row[] = [];

async function runAll(server: LocalServer, sections: BenchSection[], reference: boolean) {
  try {
    for (const section of sections) {
      console.error(`bench: ${section.name} (${server.label}, load ${loadavg()[0]?.toFixed(2)})…`);
      const got = await section.run({ server, token: benchToken, reference });
      // reference rows: labelled with their server, judged by nobody
      rows.push(
        ...(reference
          ? got.map(({ pass: _, target: __, ...r }) => ({ ...r, metric: `${r.metric} [${server.label}]` }))
          : got),
      );
    }
  } finally {
    await server.stop();
  }
}

const loadBefore = loadavg()[0] as number;
await runAll(await startMiniflareServer(), selected, false);
const referenced = selected.filter((s) => REFERENCE.has(s.name));
if (!args.includes("--no-reference") && referenced.length > 0) await runAll(await startLocalServer(), referenced, true);
printTable(rows);
const machine = { loadavg_before: loadBefore, loadavg_after: loadavg()[0], uptime_s: uptime() };
console.log(
  `load average before ${loadBefore.toFixed(2)}, after ${machine.loadavg_after?.toFixed(2)} (shared machine); state in ${STATE_ROOT}`,
);
writeFileSync(
  new URL("./results.json", import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, machine, rows }, null, 2)}\n`,
);
