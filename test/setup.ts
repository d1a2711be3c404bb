// Runs before every workers test file. The files share one workerd runtime (vitest `isolate: false`), so each file
// starts from empty storage (reset() deletes every Durable Object, D1 included), freshly evaluated modules
// (per-isolate caches) and the schema of the D1 migrations. A storage call the previous file left in flight (a queue
// retry, an outbox flush) is cut off by the reset; workerd reports it, and npm test drops that report as caused by the
// harness (STORAGE_RESET in scripts/runtime-reports.mjs).
import { env, reset } from "cloudflare:test";
import { vi } from "vitest";

await reset();
await dropLeftoverTables();
vi.resetModules();
// Every migration's statements in one batch: one round trip to D1 instead of applyD1Migrations' one batch per
// migration plus its bookkeeping (nothing reads the d1_migrations table in tests).
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((m) => m.queries.map((q) => env.DB.prepare(q))));

/**
 * Tables still there after reset(): seen once on a machine at load 28 ("table … already exists" in the next batch),
 * when the D1 object of the previous file stayed alive through the reset on a call it still had in flight. Dropped
 * here, so every file starts from an empty database whatever the timing.
 */
async function dropLeftoverTables(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  if (results.length === 0) return;
  await env.DB.batch([
    env.DB.prepare("PRAGMA defer_foreign_keys = on"),
    ...results.map((t) => env.DB.prepare(`DROP TABLE IF EXISTS "${t.name.replaceAll('"', '""')}"`)),
  ]);
}
