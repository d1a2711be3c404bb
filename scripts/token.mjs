// npm run token -- --team T [--scopes a,b] [--sub S] [--run R] [--task K] [--persona P] [--ttl 900]: mints a local
// token from .dev.vars. Plain ESM over jose; the scopes, lifetime cap and team id rule are src/auth/scopes.ts's (an
// import-free file Node ≥ 22.18 loads by stripping its types; `npm run` uses the package's Node 22).
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { MAX_TOKEN_LIFETIME_S, SCOPES, TEAM_ID_PATTERN } from "../src/auth/scopes.ts";
import { ensureDevVars } from "./dev-vars.mjs";

const ID_PATTERN = /^.{1,128}$/;
const DEFAULT_SCOPES = SCOPES.filter((s) => s !== "policy:admin").join(",");
const USAGE =
  "usage: npm run token -- --team <team_id> [--scopes a,b] [--sub who] [--run id] [--task id] [--persona id] [--ttl s]";

/** The claims for these arguments, or an error naming the bad value. */
export function claimsFor(values) {
  if (!values.team) return { error: USAGE };
  if (!TEAM_ID_PATTERN.test(values.team) || values.team === "." || values.team === "..")
    return { error: `team id ${JSON.stringify(values.team)} is not 1-128 characters of A-Z a-z 0-9 _ . : @ + -` };
  const scopes = (values.scopes ?? DEFAULT_SCOPES)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !SCOPES.includes(s));
  if (unknown.length > 0)
    return { error: `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(", ")} (known: ${SCOPES.join(", ")})` };
  const ttl = Number(values.ttl ?? MAX_TOKEN_LIFETIME_S);
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_LIFETIME_S)
    return {
      error: `--ttl ${values.ttl} is not a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_S} (tokens live at most 15 min)`,
    };
  for (const k of ["sub", "run", "task", "persona"]) {
    if (values[k] !== undefined && !ID_PATTERN.test(values[k])) return { error: `--${k} must be 1-128 characters` };
  }
  const claims = { team_id: values.team, scopes };
  if (values.run) claims.run_id = values.run;
  if (values.task) claims.task_id = values.task;
  if (values.persona) claims.persona_id = values.persona;
  return { claims, ttl, sub: values.sub };
}

export async function mint(secret, values, nowS = Math.floor(Date.now() / 1000)) {
  const r = claimsFor(values);
  if (r.error) throw new Error(r.error);
  const jwt = new SignJWT(r.claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("warden")
    .setAudience("warden")
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + r.ttl);
  if (r.sub) jwt.setSubject(r.sub);
  return jwt.sign(new TextEncoder().encode(secret));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: Object.fromEntries(
      ["team", "scopes", "sub", "run", "task", "persona", "ttl"].map((k) => [k, { type: "string" }]),
    ),
  });
  const checked = claimsFor(values);
  if (checked.error) {
    console.error(checked.error);
    process.exit(2);
  }
  const { WARDEN_JWT_SECRET } = ensureDevVars();
  console.log(await mint(WARDEN_JWT_SECRET, values));
}
