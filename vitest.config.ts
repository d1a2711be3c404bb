// Two projects: "workers" runs inside workerd with local D1/DO/queues; "node" runs process-level tests (scripts, contracts on disk).
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export const TEST_JWT_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

export default defineConfig(async () => ({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                WARDEN_JWT_SECRET: TEST_JWT_SECRET,
                SLACK_SIGNING_SECRET: "test-slack-signing-secret",
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
              },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["src/**/*.test.ts", "durable-objects/**/*.test.ts", "test/**/*.test.ts", "contracts/**/*.test.ts"],
          exclude: ["**/*.node.test.ts"],
          setupFiles: ["./test/setup.ts"],
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["**/*.node.test.ts"],
          exclude: ["node_modules/**"],
          testTimeout: 120_000,
        },
      },
    ],
  },
}));
