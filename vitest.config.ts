// Test projects: "workers" runs inside shared workerd runtimes with local D1/DO/queues (test/setup.ts resets storage and
// modules per file); "unit" runs pure tests (`*.unit.test.ts`) in Node threads; "node" and "node-server" run
// process-level tests (`*.node.test.ts`), the latter against one shared `npm start`. All of them run side by side, two
// files at a time, longest first (LongestFirst).
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { unstable_readConfig } from "wrangler";

export const TEST_JWT_SECRET = "test-secret-0123456789abcdef0123456789abcdef";
export const TEST_SLACK_SIGNING_SECRET = "test-slack-signing-secret-0123456789";
export const TEST_SLACK_TOKEN_KEY = "test-slack-token-key-0123456789abcdef0123";

const WORKERS_TESTS = [
  "src/**/*.test.ts",
  "durable-objects/**/*.test.ts",
  "test/**/*.test.ts",
  "contracts/**/*.test.ts",
];
const NOT_WORKERS = ["**/*.node.test.ts", "**/*.unit.test.ts"];
const OWN_RUNTIME = ["src/features/sweeps/sweeps.test.ts"];
/**
 * Process-level tests against a local `npm start` server: the node-server project, whose global setup starts one server
 * they share (test/node-server/). Any new `cli/*.node.test.ts` joins it by its folder.
 */
const SERVER_TESTS = [
  "cli/**/*.node.test.ts",
  "scripts/**/*.node.test.ts",
  "src/features/pages/**/*.node.test.ts",
  "src/features/mcp/**/*.node.test.ts",
  "test/security/**/*.node.test.ts",
];

const migrations = await readD1Migrations("./migrations");

/**
 * How long miniflare holds a queue's first message for more to batch with, in tests: 50 ms instead of wrangler.toml's
 * max_batch_timeout (1 s). A test that waits on a delivery waited that second each time (the queues contract's four
 * deliveries then the dead-letter queue's: 5 s a test); a busy queue still batches what arrives while its consumer
 * runs. Batch size, retries and dead-letter queues stay wrangler.toml's.
 */
const TEST_BATCH_TIMEOUT_S = 0.05;
const queueConsumers = Object.fromEntries(
  (unstable_readConfig({ config: "./wrangler.toml" }).queues.consumers ?? []).map((c) => [
    c.queue,
    {
      maxBatchSize: c.max_batch_size,
      maxBatchTimeout: TEST_BATCH_TIMEOUT_S,
      maxRetries: c.max_retries,
      deadLetterQueue: c.dead_letter_queue,
      retryDelay: c.retry_delay,
    },
  ]),
);

/**
 * The one time limit of every test and hook, in every project: generous, so a loaded machine (the suite must pass
 * beside a CPU-bound process on both cores) never fails a test on time alone; a test that hangs still fails.
 */
const TEST_TIMEOUT_MS = 300_000;
const limits = { testTimeout: TEST_TIMEOUT_MS, hookTimeout: TEST_TIMEOUT_MS };

/** A project whose tests run inside workerd with the bindings of wrangler.toml and the D1 migrations applied. */
function workersProject(name: string, test: { include: string[]; exclude: string[]; isolate: boolean }) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Slack Web API calls the queue consumer makes in the background (cards of installed test teams) get a
          // plain ok; every other outbound request goes out unchanged. The Slack client itself is tested against a
          // real loopback server (src/features/slack/outbox.node.test.ts).
          outboundService: async (request: Request) => {
            if (new URL(request.url).hostname === "slack-api.test")
              return Response.json({ ok: true, channel: "C0", ts: "1700000000.000001" });
            // rebuilt for Node's fetch, which does not take miniflare's Request (the loopback Slack server's calls)
            const body = ["GET", "HEAD"].includes(request.method) ? undefined : await request.arrayBuffer();
            return fetch(request.url, { method: request.method, headers: [...request.headers], body });
          },
          bindings: {
            WARDEN_JWT_SECRET: TEST_JWT_SECRET,
            SLACK_SIGNING_SECRET: TEST_SLACK_SIGNING_SECRET,
            SLACK_TOKEN_KEY: TEST_SLACK_TOKEN_KEY,
            // answered by outboundService below: the SLACK_OUTBOX consumer's background posts succeed at once
            SLACK_API_BASE_URL: "http://slack-api.test/api/",
            TEST_MIGRATIONS: migrations,
          },
          // replaces wrangler.toml's consumers one by one (miniflare merges the two by queue name)
          queueConsumers,
        },
      }),
    ],
    // the loopback Slack Web API server workerd tests call (test/slack-loopback.ts)
    test: {
      name,
      setupFiles: ["./test/setup.ts"],
      globalSetup: ["./test/slack-api-global-setup.ts"],
      ...limits,
      ...test,
    },
  };
}

/**
 * What lets the Durable Object classes load in the unit project: `cloudflare:workers` is a small shim (its DurableObject
 * base class) and a `.wasm` import is the compiled module read from its file, as workerd hands it over.
 */
const nodeDurableObjects = {
  resolve: {
    alias: { "cloudflare:workers": fileURLToPath(new URL("./test/fakes/cloudflare-workers.ts", import.meta.url)) },
  },
  plugins: [
    {
      name: "wasm-module",
      enforce: "pre" as const,
      load(id: string) {
        if (!id.endsWith(".wasm")) return undefined;
        return `import { readFileSync } from "node:fs";
export default new WebAssembly.Module(readFileSync(${JSON.stringify(id)}));`;
      },
    },
  ],
};

/**
 * The order files start in, longest first so the two slots finish together (vitest's own order is by project name,
 * then by the durations of an earlier run, which a fresh clone does not have): the security fuzz (its Node files first) and
 * matrix, then the
 * node-server files (slow, and mostly waiting on processes), the other workerd files, then the quick Node files. Within
 * a rank, larger files first.
 */
class LongestFirst extends BaseSequencer {
  static rank(spec: TestSpecification): number {
    // the fuzz's 40,000 requests in Node, in two halves: the longest files of all, though among the smallest
    if (/\/test\/security\/fuzz-\d\.app\.unit\.test\.ts$/.test(spec.moduleId)) return -1;
    if (spec.moduleId.includes("/test/security/")) return 0;
    const ranks: Record<string, number> = { "node-server": 1, workers: 2, "workers-own-runtime": 2, node: 3, unit: 4 };
    return ranks[spec.project.name] ?? 5;
  }
  override async sort(files: TestSpecification[]) {
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => LongestFirst.rank(a) - LongestFirst.rank(b) || size(b) - size(a));
  }
}

export default defineConfig(async () => ({
  test: {
    sequence: { sequencer: LongestFirst },
    // Two at a time even on a 2-core machine (vitest would pick 1): the node-server files wait on servers, browsers and
    // CLI processes while a workerd runtime runs files. Every project has the same maxWorkers and no project turns
    // fileParallelism off, so they form one group: vitest would run a group of one-at-a-time files after all the rest.
    maxWorkers: 2,
    // an uncaught exception or unhandled rejection in any test process fails the run (vitest's default, kept on purpose;
    // those workerd reports itself are checked by scripts/test.mjs)
    dangerouslyIgnoreUnhandledErrors: false,
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
        ...nodeDurableObjects,
        test: {
          name: "unit",
          environment: "node",
          include: ["**/*.unit.test.ts"],
          exclude: ["node_modules/**"],
          // pure tests: one thread per slot runs file after file without a fresh module graph each time
          pool: "threads",
          isolate: false,
          ...limits,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["**/*.node.test.ts"],
          exclude: ["node_modules/**", ...SERVER_TESTS],
          ...limits,
        },
      },
      {
        test: {
          name: "node-server",
          environment: "node",
          include: SERVER_TESTS,
          exclude: ["node_modules/**"],
          globalSetup: ["./test/node-server/global-setup.ts"],
          ...limits,
        },
      },
    ],
  },
}));
