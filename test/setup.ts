// Runs before every workers test file. The files share one workerd runtime (vitest `isolate: false`), so each file
// starts from empty storage (reset() deletes every Durable Object, D1 included), freshly evaluated modules
// (per-isolate caches) and the D1 migrations applied.
import { applyD1Migrations, env, reset } from "cloudflare:test";
import { vi } from "vitest";

await reset();
vi.resetModules();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
