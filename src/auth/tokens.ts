// Capability tokens: HS256 JWT verification with jose (alg pinned, iss/aud, lifetime ≤ 900 s), cached until expiry.
import { errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";
import { err, ok, type Result } from "../lib/result";

export const SCOPES = [
  "policy:decide",
  "policy:admin",
  "runs:read",
  "runs:write",
  "approvals:decide",
  "memory:read",
  "memory:write",
  "events:write",
] as const;
export type Scope = (typeof SCOPES)[number];

export const MAX_TOKEN_LIFETIME_S = 900;
export const CLOCK_TOLERANCE_S = 30;
const idClaim = z.string().min(1).max(128);

const Claims = z.object({
  iat: z.number(),
  exp: z.number(),
  team_id: idClaim,
  scopes: z.array(z.enum(SCOPES)),
  sub: idClaim.optional(),
  run_id: idClaim.optional(),
  task_id: idClaim.optional(),
  persona_id: idClaim.optional(),
});

export type Principal = {
  teamId: string;
  scopes: ReadonlySet<Scope>;
  /** the caller's identity: used as approver and actor; falls back to "team:<team_id>" */
  subject: string;
  runId?: string;
  taskId?: string;
  personaId?: string;
  expiresAtMs: number;
};

export type TokenVerifier = (token: string, nowMs: number) => Promise<Result<Principal, string>>;

/** Builds a verifier for one secret; verified tokens are cached until they expire (bounded size). */
export function createTokenVerifier(secret: string, maxCached = 10_000): TokenVerifier {
  const key = new TextEncoder().encode(secret);
  const cache = new Map<string, Principal>();
  return async (token, nowMs) => {
    const cached = cache.get(token);
    if (cached) {
      if (cached.expiresAtMs + CLOCK_TOLERANCE_S * 1000 > nowMs) return ok(cached);
      cache.delete(token);
    }
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: "warden",
        audience: "warden",
        requiredClaims: ["exp", "iat"],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(nowMs),
      }));
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) return err("token expired");
      if (e instanceof joseErrors.JWTClaimValidationFailed) return err(`token claim "${e.claim}" is invalid`);
      return err("token is malformed or its signature does not verify");
    }
    const claims = Claims.safeParse(payload);
    if (!claims.success) return err("token lacks team_id or valid scopes");
    const { iat, exp } = claims.data;
    if (exp - iat > MAX_TOKEN_LIFETIME_S) return err(`token lifetime exceeds ${MAX_TOKEN_LIFETIME_S} s`);
    if (iat * 1000 > nowMs + CLOCK_TOLERANCE_S * 1000) return err("token issued in the future");
    const principal: Principal = {
      teamId: claims.data.team_id,
      scopes: new Set(claims.data.scopes),
      subject: claims.data.sub ?? `team:${claims.data.team_id}`,
      runId: claims.data.run_id,
      taskId: claims.data.task_id,
      personaId: claims.data.persona_id,
      expiresAtMs: exp * 1000,
    };
    if (cache.size >= maxCached) cache.clear();
    cache.set(token, principal);
    return ok(principal);
  };
}
