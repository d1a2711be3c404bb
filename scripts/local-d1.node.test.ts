// scripts/local-d1.mjs against wrangler itself: the local database it migrates is the one `wrangler d1` reads, every
// migration recorded, applied once; a failing migration leaves itself and every later one unapplied.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterEach, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
// @ts-expect-error plain ESM script, no declarations
import { applyLocalMigrations } from "./local-d1.mjs";

const root = join(import.meta.dirname, "..");
const databaseId = unstable_readConfig({ config: join(root, "wrangler.toml") }).d1_databases[0]?.database_id;
const dirs: string[] = [];
function tempDir(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `warden-${name}-`));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Rows of one query on the local database under `persistTo`, read through a Miniflare of its own. */
async function query(persistTo: string, sql: string) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      resourcePersistencePath: join(persistTo, "v3"),
      d1Databases: { DATABASE: databaseId as string },
    }),
  );
  try {
    return (await (await mf.getD1Database("DATABASE")).prepare(sql).all()).results;
  } finally {
    await mf.dispose();
  }
}

describe("applyLocalMigrations", () => {
  it("applies every migration once, in order, where `wrangler d1 migrations list --local` finds them applied", async () => {
    const persistTo = tempDir("local-d1");
    const files = readdirSync(join(root, "migrations"))
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(await applyLocalMigrations({ config: join(root, "wrangler.toml"), persistTo })).toEqual(files);
    expect(await applyLocalMigrations({ config: join(root, "wrangler.toml"), persistTo })).toEqual([]);
    const againstWrangler = execFileSync(
      process.execPath,
      [
        join(root, "node_modules/wrangler/bin/wrangler.js"),
        ...["d1", "migrations", "list", "DB", "--local", "--persist-to", persistTo],
      ],
      { cwd: root, encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
    );
    expect(againstWrangler).toMatch(/No migrations to apply/);
  });

  it("stops at a failing migration: it and every later one unapplied, the earlier ones kept", async () => {
    const persistTo = tempDir("local-d1");
    const migrationsDir = tempDir("migrations");
    writeFileSync(join(migrationsDir, "0000_first.sql"), "CREATE TABLE first (id INTEGER PRIMARY KEY);\n");
    writeFileSync(
      join(migrationsDir, "0001_broken.sql"),
      "CREATE TABLE broken (id INTEGER PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);\n",
    );
    writeFileSync(join(migrationsDir, "0002_later.sql"), "CREATE TABLE later (id INTEGER PRIMARY KEY);\n");
    await expect(
      applyLocalMigrations({ config: join(root, "wrangler.toml"), persistTo, migrationsDir }),
    ).rejects.toThrow(/migration 0001_broken\.sql failed: .*no_such_table/);
    expect((await query(persistTo, "SELECT name FROM d1_migrations")).map((r) => r.name)).toEqual(["0000_first.sql"]);
    const tables = (await query(persistTo, "SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name);
    expect(tables).toContain("first");
    expect(tables).not.toContain("broken");
    expect(tables).not.toContain("later");
  });
});
