// Secrets and test-only bindings that `wrangler types` cannot see (they live in .dev.vars / the vitest config).
interface Env {
  WARDEN_JWT_SECRET: string;
  SLACK_SIGNING_SECRET?: string;
  SLACK_SIGNING_SECRET_PREVIOUS?: string;
  SLACK_TOKEN_KEY?: string;
  SLACK_CLIENT_ID?: string;
  SLACK_CLIENT_SECRET?: string;
}

declare namespace Cloudflare {
  interface Env {
    WARDEN_JWT_SECRET: string;
    SLACK_SIGNING_SECRET?: string;
    SLACK_SIGNING_SECRET_PREVIOUS?: string;
    SLACK_TOKEN_KEY?: string;
    SLACK_CLIENT_ID?: string;
    SLACK_CLIENT_SECRET?: string;
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
