// Runs before every workers test file. The files share one workerd runtime (vitest `isolate: false`), so each file
// starts from empty storage (reset() deletes every Durable Object, D1 included), freshly evaluated modules of Warden's
// own (src/, durable-objects/, test/: per-isolate caches, helpers' state) and the schema of the D1 migrations. A
// storage call the previous file left in flight (a queue retry, an outbox flush) is cut off by the reset; workerd
// reports it, and npm test drops that report as caused by the harness (STORAGE_RESET in scripts/runtime-reports.mjs).
import { env, reset } from "cloudflare:test";
import { vi } from "vitest";

await reset();
await dropLeftoverTables();
resetOwnModules();
// Every migration's statements in one batch: one round trip to D1 instead of applyD1Migrations' one batch per
// migration plus its bookkeeping (nothing reads the d1_migrations table in tests).
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((m) => m.queries.map((q) => env.DB.prepare(q))));

/** What vitest's module runner keeps of one evaluated module (vitest's own `resetModules` clears the same fields). */
type EvaluatedModule = { promise?: unknown; exports?: unknown; evaluated: boolean; importers: Set<string> };

/**
 * `vi.resetModules()` for Warden's own modules only: the ~400 modules of third-party packages (zod, hono, drizzle…;
 * half the graph) hold no Warden state and stay evaluated, so a file no longer pays their evaluation again (about 2-4 s
 * of import per file on a loaded 2-core machine). Every module under src/, durable-objects/ and test/ is evaluated afresh
 * as before. Without the runner's module graph (another vitest), everything is reset.
 */
function resetOwnModules(): void {
  const graph = (globalThis as { __vitest_worker__?: { evaluatedModules?: { idToModuleMap?: unknown } } })
    .__vitest_worker__?.evaluatedModules?.idToModuleMap;
  if (!(graph instanceof Map)) {
    vi.resetModules();
    return;
  }
  for (const [id, node] of graph as Map<string, EvaluatedModule>) {
    if (id.includes("/node_modules/") || id.startsWith("mock:")) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
}

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
