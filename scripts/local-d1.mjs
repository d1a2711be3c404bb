// The D1 migrations applied to the local database `wrangler dev` serves, in one Miniflare runtime: what
// `wrangler d1 migrations apply DB --local` does, without its one runtime start per migration (~50 s for 27 migrations
// on a 2-core machine, against ~3 s here). Same file, same `d1_migrations` table, so wrangler's own commands agree.
import { dirname, join, resolve } from "node:path";
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";

/** wrangler's default name of the table of applied migrations (a binding's `migrations_table` overrides it). */
const DEFAULT_MIGRATIONS_TABLE = "d1_migrations";

/**
 * Applies the binding's migrations that its `migrations_table` does not list yet, each one with its record in one
 * batch (all or nothing, as wrangler does), in file-name order. Persistence as wrangler's: `<persistTo>/v3/d1`, where
 * `persistTo` defaults to `.wrangler/state` beside the config. Returns the names applied, in order; throws on the first
 * migration that fails, leaving it and every later one unapplied.
 */
export async function applyLocalMigrations({
  config = "wrangler.toml",
  binding = "DB",
  persistTo,
  migrationsDir,
} = {}) {
  const wrangler = unstable_readConfig({ config });
  const db = (wrangler.d1_databases ?? []).find((d) => d.binding === binding);
  if (!db) throw new Error(`no D1 binding ${binding} in ${config}`);
  const dir = migrationsDir ?? resolve(dirname(config), db.migrations_dir ?? "migrations");
  const state = persistTo ? resolve(persistTo) : resolve(dirname(config), ".wrangler/state");
  const table = `"${(db.migrations_table ?? DEFAULT_MIGRATIONS_TABLE).replaceAll('"', '""')}"`;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      resourcePersistencePath: join(state, "v3"),
      d1Databases: { DATABASE: db.preview_database_id ?? db.database_id ?? binding },
    }),
  );
  try {
    const d1 = await mf.getD1Database("DATABASE");
    await d1
      .prepare(
        `CREATE TABLE IF NOT EXISTS ${table}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
      )
      .run();
    const done = new Set((await d1.prepare(`SELECT name FROM ${table}`).all()).results.map((r) => r.name));
    const applied = [];
    for (const { name, queries } of await readD1Migrations(dir)) {
      if (done.has(name)) continue;
      const record = d1.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(name);
      try {
        await d1.batch([...queries.map((q) => d1.prepare(q)), record]);
      } catch (e) {
        throw new Error(`migration ${name} failed: ${e?.cause?.message ?? e?.message ?? e}`);
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await mf.dispose();
  }
}
