// One writer per table: every D1 table is written (INSERT, UPDATE, DELETE) by exactly one adapter module, the owner
// docs/storage.md names; other modules run the owner's exported statements instead of writing the table themselves.
import { describe, expect, it } from "vitest";
import storageDoc from "../../../docs/storage.md?raw";

/**
 * The D1 modules as text, by path from the repo root: the stores of every feature (src/features/<name>/store/) and the
 * shared D1 folder (Vite reads them at import; no fs, so tsc checks this file too).
 */
const SOURCES = new Map(
  Object.entries({
    ...import.meta.glob<string>("./*.ts", { query: "?raw", import: "default", eager: true }),
    ...import.meta.glob<string>("../../features/*/store/*.ts", { query: "?raw", import: "default", eager: true }),
  })
    .filter(([path]) => !path.includes(".test."))
    .map(([path, text]) => [path.startsWith("./") ? `src/adapters/d1/${path.slice(2)}` : `src/${path.slice(6)}`, text]),
);
const read = (file: string) => SOURCES.get(file) ?? "";
const isTables = (file: string) => /\/(schema|tables)\.ts$/.test(file);
const baseName = (file: string) => file.slice(file.lastIndexOf("/") + 1);

/**
 * Writers still in src/adapters/d1/: the D1 memory store, the older memory home (its tables are in
 * src/features/memory/store/tables.ts). Every other writer sits in its owner feature's store folder.
 */
const NOT_YET_IN_FEATURE = new Set(["memory-store.ts", "memory-session-rows.ts"]);

/** drizzle variable → SQL table name, from a tables file */
function tablesOfSchema(schema: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of schema.matchAll(/export const (\w+) = sqliteTable\(\s*"(\w+)"/g)) out.set(m[1] ?? "", m[2] ?? "");
  return out;
}

/** the tables a module's source writes: drizzle builders (through `const a = table` aliases too) and raw SQL */
export function tablesWrittenBy(source: string, tables: Map<string, string>): Set<string> {
  const names = new Map(tables);
  for (const m of source.matchAll(/const (\w+) = (\w+);/g)) {
    const table = tables.get(m[2] ?? "");
    if (table) names.set(m[1] ?? "", table);
  }
  const sqlNames = new Set(tables.values());
  const written = new Set<string>();
  for (const m of source.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = names.get(m[1] ?? "");
    if (table) written.add(table);
  }
  // the versioned-row helpers (next-version.ts) write the table their caller hands them: the caller is its writer
  for (const m of source.matchAll(
    /\b(?:insertNextVersion|activatePendingVersion|pendingRequest|jsonBodyRequests)\(\s*\w+,\s*(\w+)/g,
  )) {
    const table = names.get(m[1] ?? "");
    if (table) written.add(table);
  }
  for (const m of source.matchAll(/\b(?:INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM)\s+(\w+)/g)) {
    if (sqlNames.has(m[1] ?? "")) written.add(m[1] ?? "");
  }
  return written;
}

/** table → the modules that write it (paths from the repo root) */
function writersByTable(): Map<string, string[]> {
  const tables = new Map([...SOURCES.keys()].filter(isTables).flatMap((file) => [...tablesOfSchema(read(file))]));
  const writers = new Map<string, string[]>([...tables.values()].map((t) => [t, []]));
  const modules = [...SOURCES.keys()].filter((f) => !isTables(f));
  for (const file of modules) for (const t of tablesWrittenBy(read(file), tables)) writers.get(t)?.push(file);
  return writers;
}

/** the feature a table's owner text names first ("runs (`run-record.ts`)", "policy's decision log (…)") */
const ownerFeature = (ownerText: string) => /^\s*([a-z-]+)/.exec(ownerText.replace(/'s\b/, ""))?.[1] ?? "";

/**
 * table → where docs/storage.md ("D1 tables") names its owner: the row's Owner cell, plus the section's opening text
 * (a section whose tables share one store names it there once).
 */
function ownerTexts(): Map<string, string> {
  const doc = storageDoc;
  const d1 = doc.slice(doc.indexOf("## D1 tables"), doc.indexOf("\n## ", doc.indexOf("## D1 tables") + 1));
  const out = new Map<string, string>();
  for (const section of d1.split("\n### ")) {
    const intro = section
      .split("\n")
      .filter((line) => !line.startsWith("|"))
      .join(" ");
    for (const m of section.matchAll(/^\| `(\w+)`\s*\|([^|]*)\|/gm)) out.set(m[1] ?? "", `${m[2]} ${intro}`);
  }
  return out;
}

/** Tables kept for reading only (docs/storage.md says so): no module may write them. */
const READ_ONLY = new Set(["policy_decision"]);

describe("one writer per D1 table", () => {
  const all = writersByTable();
  const writers = new Map([...all].filter(([table]) => !READ_ONLY.has(table)));

  it("writes no read-only table", () => {
    for (const table of READ_ONLY) expect(all.get(table), table).toEqual([]);
  });

  it("finds every table of the schema, each written by exactly one module", () => {
    expect(writers.size).toBeGreaterThan(30);
    const notOne = [...writers].filter(([, files]) => files.length !== 1);
    expect(notOne).toEqual([]);
  });

  it("the writer is the owner docs/storage.md names", () => {
    const owners = ownerTexts();
    const wrong = [...writers]
      // named as `memory-store.ts` or `src/adapters/d1/memory-store.ts`
      .filter(([table, [file = ""]]) => !new RegExp(`[\`/]${baseName(file)}\``).test(owners.get(table) ?? ""))
      .map(([table, [file]]) => `${table}: written by ${file}, storage.md names no such owner`);
    expect(wrong).toEqual([]);
  });

  it("the writer sits in the store folder of the feature storage.md names as the table's owner", () => {
    const owners = ownerTexts();
    const misplaced = [...writers]
      .filter(([, [file = ""]]) => !(file.startsWith("src/adapters/d1/") && NOT_YET_IN_FEATURE.has(baseName(file))))
      .filter(
        ([table, [file = ""]]) => !file.startsWith(`src/features/${ownerFeature(owners.get(table) ?? "")}/store/`),
      )
      .map(([table, [file]]) => `${table}: written by ${file}, owner "${ownerFeature(owners.get(table) ?? "")}"`);
    expect(misplaced).toEqual([]);
  });

  it("the memory sweep writes its tables only through memory-store.ts", () => {
    expect(writers.get("mem_doc")).toEqual(["src/adapters/d1/memory-store.ts"]);
    expect(writers.get("mem_actor_importance")).toEqual(["src/adapters/d1/memory-store.ts"]);
    expect(writers.get("approval_event")?.map(baseName)).toEqual(["run-record.ts"]);
  });

  it("reads the owner feature off the owner text", () => {
    expect(ownerFeature("runs (`run-record.ts`)")).toBe("runs");
    expect(ownerFeature(" policy's decision log (`decision-counters.ts`)")).toBe("policy");
    expect(ownerFeature(" dead-letters (`x.ts`)")).toBe("dead-letters");
  });

  it("the scanner sees drizzle writes through aliases and raw SQL writes", () => {
    const tables = new Map([
      ["memDocs", "mem_doc"],
      ["auditLog", "audit_log"],
      ["runs", "runs"],
    ]);
    const source = [
      "const a = memDocs;",
      "db.update(a).set({ tier: 'warm' });",
      'db.prepare("INSERT OR IGNORE INTO audit_log (id) VALUES (?)");',
      "db.select().from(runs);",
    ].join("\n");
    expect([...tablesWrittenBy(source, tables)].sort()).toEqual(["audit_log", "mem_doc"]);
    expect([...tablesWrittenBy("db.delete(runs).where(x)", tables)]).toEqual(["runs"]);
  });
});
