// npm run bench [-- section…]: runs each section against one local server, prints one table, writes bench/results.json.
import { writeFileSync } from "node:fs";
import { type BenchSection, benchToken, printTable, type Row, startLocalServer } from "./harness";
import { learningSection } from "./sections/learning";
import { learningValueSection } from "./sections/learning-value";
import { limitsSection } from "./sections/limits";
import { memorySection } from "./sections/memory";
import { policySection } from "./sections/policy";
import { runsSection } from "./sections/runs";
import { slackSection } from "./sections/slack";

const SECTIONS: BenchSection[] = [
  policySection,
  runsSection,
  learningSection,
  memorySection,
  slackSection,
  limitsSection,
  learningValueSection,
];

const only = process.argv.slice(2);
const selected = only.length ? SECTIONS.filter((s) => only.includes(s.name)) : SECTIONS;
const server = await startLocalServer();
const rows: Row[] = [];
try {
  for (const section of selected) {
    console.error(`bench: ${section.name}…`);
    rows.push(...(await section.run({ server, token: benchToken })));
  }
} finally {
  await server.stop();
}
printTable(rows);
writeFileSync(
  new URL("./results.json", import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
);
