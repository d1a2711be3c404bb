// npm run token -- --team T --scopes a,b [--sub S] [--run R] [--task K] [--persona P] [--ttl 900]: mints a local token from .dev.vars.
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { ensureDevVars } from "./dev-vars.mjs";

const { values } = parseArgs({
  options: {
    team: { type: "string" },
    scopes: {
      type: "string",
      default: "policy:decide,runs:read,runs:write,approvals:decide,memory:read,memory:write,events:write",
    },
    sub: { type: "string" },
    run: { type: "string" },
    task: { type: "string" },
    persona: { type: "string" },
    ttl: { type: "string", default: "900" },
  },
});
if (!values.team) {
  console.error(
    "usage: npm run token -- --team <team_id> [--scopes a,b] [--sub who] [--run id] [--task id] [--persona id] [--ttl s]",
  );
  process.exit(2);
}
const { WARDEN_JWT_SECRET } = ensureDevVars();
const now = Math.floor(Date.now() / 1000);
const claims = {
  team_id: values.team,
  scopes: values.scopes
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
};
if (values.run) claims.run_id = values.run;
if (values.task) claims.task_id = values.task;
if (values.persona) claims.persona_id = values.persona;
const jwt = new SignJWT(claims)
  .setProtectedHeader({ alg: "HS256", typ: "JWT" })
  .setIssuer("warden")
  .setAudience("warden")
  .setIssuedAt(now)
  .setExpirationTime(now + Math.min(Number(values.ttl), 900));
if (values.sub) jwt.setSubject(values.sub);
console.log(await jwt.sign(new TextEncoder().encode(WARDEN_JWT_SECRET)));
