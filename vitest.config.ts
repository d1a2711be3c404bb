// Test projects: "workers" runs inside shared workerd runtimes with local D1/DO/queues (test/setup.ts resets storage and
// modules per file); "node" runs pure tests (`*.unit.test.ts`) and process-level tests (`*.node.test.ts`) in plain Node.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
const SERVER_TESTS = ["cli/**/*.node.test.ts", "scripts/**/*.node.test.ts", "src/features/pages/**/*.node.test.ts"];

const migrations = await readD1Migrations("./migrations");

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
          outboundService: (request: Request) =>
            new URL(request.url).hostname === "slack-api.test"
              ? Response.json({ ok: true, channel: "C0", ts: "1700000000.000001" })
              : // Miniflare's Request is not this Node's (fetch(request) fails to read its URL): pass its parts
                fetch(request.url, {
                  method: request.method,
                  headers: request.headers,
                  body: request.body,
                  duplex: "half",
                } as RequestInit),
          bindings: {
            WARDEN_JWT_SECRET: TEST_JWT_SECRET,
            SLACK_SIGNING_SECRET: TEST_SLACK_SIGNING_SECRET,
            SLACK_TOKEN_KEY: TEST_SLACK_TOKEN_KEY,
            // answered by outboundService below: the SLACK_OUTBOX consumer's background posts succeed at once
            SLACK_API_BASE_URL: "http://slack-api.test/api/",
            TEST_MIGRATIONS: migrations,
          },
        },
      }),
    ],
    // a loopback Slack API server per project, for tests that check what reaches Slack (test/slack-api-remote.ts)
    test: { name, setupFiles: ["./test/setup.ts"], globalSetup: ["./test/slack-api-global-setup.ts"], ...test },
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
          exclude: ["node_modules/**", ...SERVER_TESTS],
          testTimeout: 120_000,
          // one file at a time, as before the split: some start a redis-server or a loopback server of their own
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "node-server",
          environment: "node",
          include: SERVER_TESTS,
          exclude: ["node_modules/**"],
          globalSetup: ["./test/node-server/global-setup.ts"],
          testTimeout: 120_000,
          // one file at a time: some files still start a `wrangler dev` of their own (the `npm start` test, the pages'
          // browser test), and several at once on a small machine starve each other past their start-up deadline
          fileParallelism: false,
        },
      },
    ],
  },
}));
