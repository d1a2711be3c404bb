// Runs before every workers test file. The files share one workerd runtime (vitest `isolate: false`), so each file
// starts from empty storage (reset() deletes every Durable Object, D1 included), freshly evaluated modules
// (per-isolate caches) and the schema of the D1 migrations. A storage call the previous file left in flight (a queue
// retry, an outbox flush) is cut off by the reset; workerd reports it, and npm test drops that report as caused by the
// harness (STORAGE_RESET in scripts/runtime-reports.mjs).
import { env, reset } from "cloudflare:test";
import { vi } from "vitest";

await reset();
vi.resetModules();
// Every migration's statements in one batch: one round trip to D1 instead of applyD1Migrations' one batch per
// migration plus its bookkeeping (nothing reads the d1_migrations table in tests).
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((m) => m.queries.map((q) => env.DB.prepare(q))));
