// Test projects: "workers" runs inside shared workerd runtimes with local D1/DO/queues (test/setup.ts resets storage and
// modules per file); "node" runs pure tests (`*.unit.test.ts`) and process-level tests (`*.node.test.ts`) in plain Node.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export const TEST_JWT_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

const WORKERS_TESTS = [
  "src/**/*.test.ts",
  "durable-objects/**/*.test.ts",
  "test/**/*.test.ts",
  "contracts/**/*.test.ts",
];
const NOT_WORKERS = ["**/*.node.test.ts", "**/*.unit.test.ts"];
const OWN_RUNTIME = ["src/features/sweeps/sweeps.test.ts"];

const migrations = await readD1Migrations("./migrations");

/** A project whose tests run inside workerd with the bindings of wrangler.toml and the D1 migrations applied. */
function workersProject(name: string, test: { include: string[]; exclude: string[]; isolate: boolean }) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { WARDEN_JWT_SECRET: TEST_JWT_SECRET, TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: { name, setupFiles: ["./test/setup.ts"], ...test },
  };
}

export default defineConfig(async () => ({
  test: {
    // Two at a time even on a 2-core machine (vitest would pick 1): the slow Node test waits on its own `wrangler dev`
    // while a workerd runtime runs files; each of the two runtimes then takes about half of the workers files.
    maxWorkers: 2,
    projects: [
      workersProject("workers", {
        include: WORKERS_TESTS,
        exclude: [...NOT_WORKERS, ...OWN_RUNTIME],
        // One runtime for every file instead of one workerd start per file; isolation comes from test/setup.ts.
        isolate: false,
      }),
      // Files that read whole tables (the sweeps act on every team): their own runtime, so nothing another file left
      // running (a late queue delivery) can write into their database.
      workersProject("workers-own-runtime", { include: OWN_RUNTIME, exclude: NOT_WORKERS, isolate: true }),
      {
        test: {
          name: "node",
          environment: "node",
          include: ["**/*.node.test.ts", "**/*.unit.test.ts"],
          exclude: ["node_modules/**"],
          testTimeout: 120_000,
          // one file at a time: the process-level tests each start their own `wrangler dev` (scripts, the pages' browser
          // test), and two at once on a small machine starve each other past their start-up deadline
          fileParallelism: false,
        },
      },
    ],
  },
}));
