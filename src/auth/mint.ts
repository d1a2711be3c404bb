// Mints capability tokens (used by `npm run token`, the tests and the bench).
// Imports carry .ts extensions: the warden CLI loads this file directly on Node's type stripping.
import { SignJWT } from "jose";
import { claimProblem, MAX_TOKEN_LIFETIME_S, type Scope } from "./tokens.ts";

export type MintOptions = {
  secret: string;
  teamId: string;
  scopes: readonly Scope[];
  sub?: string;
  runId?: string;
  taskId?: string;
  personaId?: string;
  lifetimeSeconds?: number;
  nowSeconds?: number;
  /** the secret's key id (rotation); omitted → no `kid` header, verified against the current secret */
  kid?: string;
  /** the API key the token is minted from (POST /v1/tokens) */
  keyId?: string;
  /** the admin who created that API key (signed into the token: key-issued identities stay tied to their creator) */
  keyIssuer?: string;
};

/** Mints a token; throws (naming the bad value) on an unknown scope, a bad team id or a lifetime above 900 s. */
export async function mintToken(o: MintOptions): Promise<string> {
  const problem = claimProblem(o.teamId, o.scopes);
  if (problem) throw new Error(problem);
  const ttl = o.lifetimeSeconds ?? MAX_TOKEN_LIFETIME_S;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_LIFETIME_S)
    throw new Error(`ttl ${ttl} is not a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_S} (the cap)`);
  const iat = o.nowSeconds ?? Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { team_id: o.teamId, scopes: o.scopes };
  if (o.runId) claims.run_id = o.runId;
  if (o.taskId) claims.task_id = o.taskId;
  if (o.personaId) claims.persona_id = o.personaId;
  if (o.keyId) claims.key_id = o.keyId;
  if (o.keyIssuer) claims.key_by = o.keyIssuer;
  const jwt = new SignJWT(claims)
    .setProtectedHeader(o.kid ? { alg: "HS256", typ: "JWT", kid: o.kid } : { alg: "HS256", typ: "JWT" })
    .setIssuer("warden")
    .setAudience("warden")
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl);
  if (o.sub) jwt.setSubject(o.sub);
  return jwt.sign(new TextEncoder().encode(o.secret));
}
