// `npm run demo`: the Health DAG against the local server (WARDEN_URL, default http://localhost:8787), then a summary.
import { existsSync } from "node:fs";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { mintToken, WardenError } from "../src/client/index.ts";
import { runHealthDag } from "./driver.ts";
import { goldenCases, hardCases } from "./health/golden.ts";
import { openAiExtractor } from "./openai.ts";

const baseUrl = process.env.WARDEN_URL ?? "http://localhost:8787";
const teamId = process.env.WARDEN_TEAM ?? "team-demo";
const allCases = [...goldenCases(), ...hardCases()];

/** WARDEN_DEMO_DOCS=n: the first n documents only (a quicker look, same graph and workers); all of them by default. */
function demoCases() {
  const raw = process.env.WARDEN_DEMO_DOCS;
  if (raw === undefined || raw === "") return allCases;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > allCases.length) {
    console.error(`WARDEN_DEMO_DOCS must be a whole number from 1 to ${allCases.length}, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return allCases.slice(0, n);
}
const cases = demoCases();

async function tokens(): Promise<{ worker: string; approver: string; admin: string }> {
  if (process.env.WARDEN_TOKEN && process.env.WARDEN_APPROVER_TOKEN)
    return {
      worker: process.env.WARDEN_TOKEN,
      approver: process.env.WARDEN_APPROVER_TOKEN,
      admin: process.env.WARDEN_ADMIN_TOKEN ?? process.env.WARDEN_TOKEN,
    };
  const { WARDEN_JWT_SECRET: secret } = (existsSync(".dev.vars") ? readDevVars(".dev.vars") : {}) as {
    WARDEN_JWT_SECRET?: string;
  };
  if (!secret) {
    console.error(
      "no .dev.vars: start the server first with `npm start` (it creates one), or set WARDEN_TOKEN and WARDEN_APPROVER_TOKEN",
    );
    process.exit(3);
  }
  return {
    worker: await mintToken({
      secret,
      teamId,
      sub: "health-orchestrator",
      scopes: ["runs:read", "runs:write", "memory:read", "memory:write", "events:write", "policy:decide"],
    }),
    approver: await mintToken({ secret, teamId, sub: "demo-approver", scopes: ["runs:read", "approvals:decide"] }),
    admin: await mintToken({ secret, teamId, sub: "demo-admin", scopes: ["policy:admin", "runs:read"] }),
  };
}

const t = await tokens();
const extractor = process.env.OPENAI_API_KEY
  ? openAiExtractor({
      apiKey: process.env.OPENAI_API_KEY,
      baseUrl: process.env.OPENAI_BASE_URL,
      model: process.env.OPENAI_MODEL,
    })
  : undefined;
console.log(
  `Health DAG against ${baseUrl} (team ${teamId}, extractor: ${extractor ? "OpenAI-compatible" : "deterministic rules"})`,
);
try {
  const s = await runHealthDag({
    baseUrl,
    teamId,
    workerToken: t.worker,
    approverToken: t.approver,
    adminToken: t.admin,
    extractor,
    cases,
    log: console.log,
  });
  console.log(`
run ${s.run_id}: ${s.status}
  documents   ${s.documents} (${cases === allCases ? "12 golden + 2 hard" : `the first ${s.documents} of ${allCases.length}`}), passed ${s.passed}, dead letters ${s.dead_letters.length}
  graph       ${s.items} items declared once (extract → persist per document); 3 workers only pulled
  personas    at most ${s.max_in_flight.extractor} extractor lease(s) at once (limit 1), ${s.max_in_flight.cpu} cpu (limit 2)
  gates       ${s.gates.map((g) => `${g.policy_key} (${g.doc_id})`).join(", ") || "none"}; stricter re-prompts ${s.reprompts}
  leases      ${s.heartbeats} heartbeats; tokens in ${s.tokens.in}, out ${s.tokens.out}
  memory      ${s.memories_written} written; used_mem_ids ${s.used_mem_ids.join(", ") || "none"}
  dead letters ${s.dead_letters.map((d) => `${d.doc_id}: ${d.failure_class}`).join("; ") || "none"}
  trace       ${s.trace_url ?? "(not available)"}
  overview    ${s.overview_url ?? "(not available)"}

Try: npx warden --url ${baseUrl} --team ${teamId} runs explain-exit ${s.run_id} --pretty`);
} catch (e) {
  if (e instanceof WardenError) {
    console.error(
      `Warden answered ${e.status} ${e.code}: ${e.message}${e.status === 0 ? ` — is the server running? (npm start)` : ""}`,
    );
    process.exit(e.status === 0 ? 5 : e.status === 401 || e.status === 403 ? 3 : 4);
  }
  throw e;
}
