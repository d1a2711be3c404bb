// Writes test/fixtures/golden/ from RecordGen's recipe (`npx tsx demo/write-golden.ts`); a test fails when they drift.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goldenCases } from "./health/golden.ts";

const dir = join(import.meta.dirname, "../test/fixtures/golden");
mkdirSync(dir, { recursive: true });
for (const c of goldenCases()) writeFileSync(join(dir, `${c.doc.doc_id}.json`), `${JSON.stringify(c, null, 2)}\n`);
console.log(`wrote ${goldenCases().length} golden documents to ${dir}`);
