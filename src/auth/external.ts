// External identity provider: RS256/ES256 tokens verified through the issuer's JWKS (jose remote key set), mapped to a Principal.
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { err, ok } from "../lib/result";
import { CLOCK_TOLERANCE_S, joseRefusal, type Principal, SCOPES, type Scope, type TokenVerifier } from "./tokens";

export type IdpConfig = {
  /** pinned: the `iss` every token must carry */
  issuer: string;
  jwksUrl: string;
  /** pinned `aud` */
  audience: string;
  /** pinned algorithms (a subset of RS256, ES256) */
  algorithms: ("RS256" | "ES256")[];
  /** claim holding the Warden team id */
  teamClaim: string;
  /** claim holding scopes: an array or a space-separated string; only Warden scope names are taken */
  scopesClaim: string;
  /** ms before a JWKS fetch gives up */
  timeoutMs?: number;
  /** ms a fetched JWKS is trusted before it is fetched again */
  cacheMaxAgeMs?: number;
};

const claimString = (p: JWTPayload, name: string) => {
  const v = p[name];
  return typeof v === "string" && v.length > 0 && v.length <= 128 ? v : undefined;
};

/** Verifies tokens of one issuer; the JWKS is fetched lazily, cached, refetched on an unknown `kid` (rate-limited by jose). */
export function createExternalVerifier(cfg: IdpConfig): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(cfg.jwksUrl), {
    timeoutDuration: cfg.timeoutMs ?? 2000,
    cacheMaxAge: cfg.cacheMaxAgeMs ?? 10 * 60_000,
    cooldownDuration: 30_000,
  });
  return async (token, nowMs) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        algorithms: cfg.algorithms,
        issuer: cfg.issuer,
        audience: cfg.audience,
        requiredClaims: ["exp", "iat"],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(nowMs),
      }));
    } catch (e) {
      return err(joseRefusal(e));
    }
    const teamId = claimString(payload, cfg.teamClaim);
    if (!teamId) return err(`token lacks the team claim "${cfg.teamClaim}"`);
    const raw = payload[cfg.scopesClaim];
    const names = typeof raw === "string" ? raw.split(" ") : Array.isArray(raw) ? raw : [];
    const scopes = new Set(names.filter((s): s is Scope => (SCOPES as readonly unknown[]).includes(s)));
    const principal: Principal = {
      teamId,
      scopes,
      subject: payload.sub && payload.sub.length <= 128 ? payload.sub : `team:${teamId}`,
      expiresAtMs: (payload.exp as number) * 1000,
    };
    return ok(principal);
  };
}
