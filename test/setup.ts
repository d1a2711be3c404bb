// Applies the D1 migrations before the workers tests (each test file gets isolated storage on top).
import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
