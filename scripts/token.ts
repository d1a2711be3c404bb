// npm run token -- --team T --scopes a,b [--sub S] [--run R] [--task K] [--persona P] [--ttl 900]: mints a local token from .dev.vars.
import { parseArgs } from "node:util";
import { mintToken } from "../src/auth/mint";
import type { Scope } from "../src/auth/tokens";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
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
const { WARDEN_JWT_SECRET } = ensureDevVars() as { WARDEN_JWT_SECRET: string };
console.log(
  await mintToken({
    secret: WARDEN_JWT_SECRET,
    teamId: values.team,
    scopes: (values.scopes ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean) as Scope[],
    sub: values.sub,
    runId: values.run,
    taskId: values.task,
    personaId: values.persona,
    lifetimeSeconds: Math.min(Number(values.ttl), 900),
  }),
);
