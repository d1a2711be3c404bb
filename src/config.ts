// The Worker's configuration: every env var Warden reads, validated once per isolate (an invalid one fails loudly).
import { z } from "zod";
import { SLACK_DEFAULT_API_BASE_URL } from "./adapters/slack/web-api";
import { DEFAULT_ARTIFACT_MAX_BYTES, DEFAULT_TEAM_QUOTA_BYTES } from "./features/artifacts/domain";
import { DEFAULT_CEILING_MULTIPLE, DEFAULT_PREAUTH_PER_MINUTE } from "./http/rate-limits";

export const Config = z.object({
  WARDEN_JWT_SECRET: z.string().min(32, "WARDEN_JWT_SECRET must be at least 32 characters"),
  WARDEN_VERSION: z.string().default("0.0.0"),
  EMBEDDER: z.enum(["hashing", "workers-ai"]).default("hashing"),
  VECTOR_INDEX_KIND: z.enum(["local", "vectorize"]).default("local"),
  /**
   * with VECTOR_INDEX_KIND=local: comma-separated team ids whose memory vectors live in Vectorize (teams past the
   * local index's hot-set limit, docs/scaling.md threshold 3); after adding one, reindex it (docs/memory.md)
   */
  VECTORIZE_TEAMS: z.string().default(""),
  /** key id of WARDEN_JWT_SECRET (the current secret; new tokens carry it as `kid`) */
  WARDEN_JWT_KID: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .default("k1"),
  /** during a rotation: the previous secret and its key id, still accepted (docs/security.md "Key rotation") */
  WARDEN_JWT_SECRET_PREVIOUS: z.string().min(32).optional(),
  WARDEN_JWT_KID_PREVIOUS: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .optional(),
  /** external identity provider (optional): RS256/ES256 tokens through the issuer's JWKS */
  WARDEN_IDP_ISSUER: z.string().min(1).optional(),
  WARDEN_IDP_JWKS_URL: z.url().optional(),
  WARDEN_IDP_AUDIENCE: z.string().min(1).default("warden"),
  WARDEN_IDP_ALGORITHMS: z
    .string()
    .regex(/^(RS256|ES256)(,(RS256|ES256))*$/)
    .default("RS256,ES256"),
  WARDEN_IDP_TEAM_CLAIM: z.string().min(1).default("team_id"),
  WARDEN_IDP_SCOPES_CLAIM: z.string().min(1).default("scope"),
  /**
   * memory: per-isolate sliding window (local default); binding: the Workers rate-limiting binding (production);
   * upstash is chosen whenever UPSTASH_REDIS_REST_URL and _TOKEN are set
   */
  RATE_LIMITER_KIND: z.enum(["memory", "binding", "upstash"]).default("memory"),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  /** "off" only for the bench's limits-disabled row */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** per team per minute for the "other" route class (the per-class defaults: src/http/rate-limits.ts) */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_PREAUTH_PER_MINUTE: z.coerce.number().int().positive().default(DEFAULT_PREAUTH_PER_MINUTE),
  /** "false" when the Worker does not sit behind Cloudflare (npm start): CF-Connecting-IP is then the caller's to forge */
  BEHIND_CLOUDFLARE: z.enum(["true", "false"]).default("true"),
  /** a team may raise its own limits to at most this multiple of the defaults (the deployment's, not the team's) */
  RATE_LIMIT_CEILING_MULTIPLE: z.coerce.number().positive().max(1000).default(DEFAULT_CEILING_MULTIPLE),
  /** one artifact's largest body, and the bytes a team may keep in artifacts (docs/artifacts.md) */
  ARTIFACT_MAX_BYTES: z.coerce.number().int().positive().default(DEFAULT_ARTIFACT_MAX_BYTES),
  ARTIFACT_TEAM_QUOTA_BYTES: z.coerce.number().int().positive().default(DEFAULT_TEAM_QUOTA_BYTES),
  /**
   * where each team's memory rows are read and written: "team-object" (its VectorIndexDO), or "d1-until-migrated" for
   * a deployment with memories in D1: a team stays on D1's mem_* tables until its copy job switches it (docs/scaling.md)
   */
  MEMORY_ROWS: z.enum(["team-object", "d1-until-migrated"]).default("team-object"),
  MEMORY_SUMMARY_MAX_CHARS: z.coerce.number().int().min(100).max(20_000).default(2000),
  /** Slack's signing secret; without it every /slack/* request is refused (401) */
  SLACK_SIGNING_SECRET: z.string().min(16).optional(),
  /** the previous signing secret during a rotation (docs/security.md): still accepted, next to the current one */
  SLACK_SIGNING_SECRET_PREVIOUS: z.string().min(16).optional(),
  /** the key (any string ≥ 32 chars) bot tokens are encrypted under (AES-GCM); without it no installation is stored */
  SLACK_TOKEN_KEY: z.string().min(32).optional(),
  /** Slack Web API base URL: tests and local runs point it at a loopback server */
  SLACK_API_BASE_URL: z.url().default(SLACK_DEFAULT_API_BASE_URL),
  /** the Slack app's OAuth credentials (GET /slack/install, /slack/oauth/callback); without them OAuth install is off */
  SLACK_CLIENT_ID: z.string().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).optional(),
  /** Slack's authorize page: tests and local runs point it elsewhere */
  SLACK_OAUTH_AUTHORIZE_URL: z.url().default("https://slack.com/oauth/v2/authorize"),
  /** where humans reach this Worker (links in Slack messages to the Run Trace page) */
  PUBLIC_URL: z.string().default(""),
});
export type Config = z.infer<typeof Config>;

export function parseConfig(env: Env): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}
