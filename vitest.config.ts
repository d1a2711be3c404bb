// Two projects: "workers" runs inside one shared workerd runtime with local D1/DO/queues (test/setup.ts resets storage and
// modules per file); "node" runs pure tests (`*.unit.test.ts`) and process-level tests (`*.node.test.ts`) in plain Node.
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
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
              },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["src/**/*.test.ts", "durable-objects/**/*.test.ts", "test/**/*.test.ts", "contracts/**/*.test.ts"],
          exclude: ["**/*.node.test.ts", "**/*.unit.test.ts"],
          setupFiles: ["./test/setup.ts"],
          // One runtime for every file instead of one workerd start per file; isolation comes from test/setup.ts.
          isolate: false,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["**/*.node.test.ts", "**/*.unit.test.ts"],
          exclude: ["node_modules/**"],
          testTimeout: 120_000,
        },
      },
    ],
  },
}));
