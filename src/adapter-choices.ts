// Which adapter the configuration picks where there is a choice: embedder, vector index, rate limiter, token verifier.
import { createHashingEmbedder } from "./adapters/embed/hashing";
import { createWorkersAiEmbedder } from "./adapters/embed/workers-ai";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createUpstashRateLimiter } from "./adapters/ratelimit/upstash";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
import { createDoVectorIndex } from "./adapters/vector/durable-object";
import { createPerTeamVectorIndex, parseVectorizeTeams } from "./adapters/vector/per-team";
import { createVectorizeIndex, type VectorizeBinding } from "./adapters/vector/vectorize";
import { createExternalVerifier } from "./auth/external";
import { createTokenVerifier, type SigningKey, type TokenVerifier } from "./auth/tokens";
import type { Config } from "./config";
import type { Embedder } from "./ports/embedder";
import type { RateLimiter } from "./ports/rate-limiter";
import type { VectorIndex } from "./ports/vector-index";

export function buildEmbedder(config: Config, env: Env): Embedder {
  if (config.EMBEDDER === "hashing") return createHashingEmbedder();
  if (!env.AI) throw new Error("invalid configuration: EMBEDDER=workers-ai needs the AI binding");
  return createWorkersAiEmbedder(env.AI as unknown as Parameters<typeof createWorkersAiEmbedder>[0]);
}

/** VECTOR_INDEX_KIND picks the index of every team; VECTORIZE_TEAMS moves single teams of a local deployment. */
export function buildVectorIndex(config: Config, env: Env): VectorIndex {
  const teams = parseVectorizeTeams(config.VECTORIZE_TEAMS);
  if (config.VECTOR_INDEX_KIND === "local" && teams.size === 0) return createDoVectorIndex(env.VECTOR_INDEX);
  if (!env.VECTORIZE) {
    const setting = config.VECTOR_INDEX_KIND === "vectorize" ? "VECTOR_INDEX_KIND=vectorize" : "VECTORIZE_TEAMS";
    throw new Error(`invalid configuration: ${setting} needs the VECTORIZE binding`);
  }
  const vectorize = createVectorizeIndex(env.VECTORIZE as unknown as VectorizeBinding);
  if (config.VECTOR_INDEX_KIND === "vectorize") return vectorize;
  const local = createDoVectorIndex(env.VECTOR_INDEX);
  return createPerTeamVectorIndex({ local, vectorize, onVectorize: (team) => teams.has(team) });
}

export function buildRateLimiter(config: Config, env: Env): RateLimiter {
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return createUpstashRateLimiter({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN });
  }
  if (config.RATE_LIMITER_KIND === "upstash") {
    throw new Error("invalid configuration: RATE_LIMITER_KIND=upstash needs UPSTASH_REDIS_REST_URL and _TOKEN");
  }
  if (config.RATE_LIMITER_KIND === "binding") return createBindingRateLimiter(env.RATE_LIMITER);
  return createMemoryRateLimiter();
}

export function buildVerifier(config: Config): TokenVerifier {
  const keys: SigningKey[] = [{ kid: config.WARDEN_JWT_KID, secret: config.WARDEN_JWT_SECRET }];
  if (config.WARDEN_JWT_SECRET_PREVIOUS) {
    if (!config.WARDEN_JWT_KID_PREVIOUS || config.WARDEN_JWT_KID_PREVIOUS === config.WARDEN_JWT_KID) {
      throw new Error("invalid configuration: WARDEN_JWT_SECRET_PREVIOUS needs its own WARDEN_JWT_KID_PREVIOUS");
    }
    keys.push({ kid: config.WARDEN_JWT_KID_PREVIOUS, secret: config.WARDEN_JWT_SECRET_PREVIOUS });
  }
  const external =
    config.WARDEN_IDP_ISSUER && config.WARDEN_IDP_JWKS_URL
      ? createExternalVerifier({
          issuer: config.WARDEN_IDP_ISSUER,
          jwksUrl: config.WARDEN_IDP_JWKS_URL,
          audience: config.WARDEN_IDP_AUDIENCE,
          algorithms: config.WARDEN_IDP_ALGORITHMS.split(",") as ("RS256" | "ES256")[],
          teamClaim: config.WARDEN_IDP_TEAM_CLAIM,
          scopesClaim: config.WARDEN_IDP_SCOPES_CLAIM,
        })
      : undefined;
  return createTokenVerifier(keys, { external });
}
