// Raw SQL only in adapter tests: a feature test (or a test/ helper it calls) reads and seeds state through the API or
// the owning store's port, never a table. SQL strings passed to D1's prepare(), an object's sql.exec() or the SQL-taking
// test helpers fail this check outside the adapter layer; the files still converting are listed by name below, and
// the check fails when one of them is clean (take it off the list) as well as when any other file gains raw SQL.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** Where raw SQL belongs: adapter and store tests, the D1 stand-in, the harness that builds and resets databases. */
const ADAPTER_LAYER = [
  /^src\/adapters\//,
  /^src\/features\/[^/]+\/store\//,
  /^test\/node-d1\//,
  /^test\/fakes\//,
  /^test\/setup\.ts$/,
  /^test\/security\/(write-counter|fuzz)\.ts$/,
  /^test\/(drill|fleet)\//,
  /^scripts\/local-d1\.node\.test\.ts$/,
  // drizzle's driver for a team memory object's SQLite in tests: it runs the SQL drizzle builds, no SQL of its own
  /^test\/team-object-tables\.ts$/,
];

/** A call that hands SQL to a database: prepare(…), sql.exec(…), `rows("SQL")`, and the helpers whose every call takes SQL. */
const RAW_SQL = /\.prepare\(|sql\.exec\(|\brows(<[^>]*>)?\(\s*[`"']|\b(teamMemoryRows|rowsIn|entryRowIn)(<[^>]*>)?\(/;

/** Files that still seed or read tables with SQL (being converted; each one taken off when it is clean). */
const CONVERTING = [
  "src/features/board/chaos-load.test.ts",
  "src/features/policy/decision-journal.test.ts",
  "src/features/sweeps/sweeps.test.ts",
  "test/learning.ts",
  "test/run-calls.ts",
  "test/security/rows/faults.ts",
  "test/security/rows/run-bound-admin.ts",
  "test/security/rows/self-issued-keys.ts",
];

const files = execFileSync("git", ["ls-files", "*.test.ts", "test/*.ts", "test/**/*.ts"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => f && existsSync(f) && !ADAPTER_LAYER.some((re) => re.test(f)));
const withSql = new Set(files.filter((f) => RAW_SQL.test(readFileSync(f, "utf8"))));
const added = [...withSql].filter((f) => !CONVERTING.includes(f));
const clean = CONVERTING.filter((f) => !withSql.has(f));
if (added.length > 0)
  console.log(
    `raw SQL outside the adapter layer (read and seed through the API or the owning store's port):\n${added.join("\n")}`,
  );
if (clean.length > 0)
  console.log(`no raw SQL left: take these off CONVERTING in scripts/raw-sql-in-tests.mjs:\n${clean.join("\n")}`);
if (added.length > 0 || clean.length > 0) process.exit(1);
