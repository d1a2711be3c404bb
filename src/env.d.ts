// Secrets and test-only bindings that `wrangler types` cannot see (they live in .dev.vars / the vitest config).
/** the secrets, typed once for both the global Env and Cloudflare.Env */
interface WardenSecrets {
  WARDEN_JWT_SECRET: string;
  SLACK_SIGNING_SECRET?: string;
  SLACK_SIGNING_SECRET_PREVIOUS?: string;
  SLACK_TOKEN_KEY?: string;
  SLACK_CLIENT_ID?: string;
  SLACK_CLIENT_SECRET?: string;
}

interface Env extends WardenSecrets {}

declare namespace Cloudflare {
  interface Env extends WardenSecrets {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
