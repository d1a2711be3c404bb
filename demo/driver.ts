// Drives the Health DAG against a Warden server as remote agents would: declares it once, then workers only pull.

import { type Api, createApi, unwrap, WardenError } from "../src/client/index.ts";
import { HEALTH_PERSONAS, healthDagItems } from "../src/features/board/health-dag.ts";
import { type Extractor, type MemoryHint, ruleExtractor } from "./health/extractor.ts";
import { goldenCases, hardCases } from "./health/golden.ts";
import type { GoldenCase } from "./health/schema.ts";
import { approver, type Floor, worker } from "./workers.ts";

export type DemoOptions = {
  baseUrl: string;
  teamId: string;
  /** the workers (runs:write, memory, events) */
  workerToken: string;
  /** a different identity for approvals: nobody approves their own request */
  approverToken: string;
  /** policy:admin, to set the personas (PUT /v1/personas) */
  adminToken: string;
  extractor?: Extractor;
  cases?: GoldenCase[];
  log?: (line: string) => void;
  /** how many workers pull at once (default 3) */
  workers?: number;
  /** give up after this long (default 5 minutes) */
  timeoutMs?: number;
  /** how long an idle worker or the approver waits before polling again (default 400 ms, gentle on a shared server) */
  idleMs?: number;
};

export type DemoSummary = Floor["tally"] & {
  run_id: string;
  status: string;
  documents: number;
  items: number;
  trace_url: string | null;
  overview_url: string | null;
};

/** The knowledge the extractor may cite (written once, then queried like any worker would). */
async function seedMemories(api: Api, ns: string, log: (line: string) => void): Promise<MemoryHint[]> {
  const seed = await unwrap(
    api.v1.memory.$post({
      json: {
        namespace: ns,
        class: "kb",
        text: "Health DAG: invoice totals use commas as thousands separators; dates are ISO.",
        tags: ["health-dag"],
      },
    }),
  );
  const hits = await unwrap(
    api.v1.memory.query.$post({ json: { namespaces: [ns], text: "invoice totals dates ticket status", top_k: 5 } }),
  );
  log(`memory: ${hits.results.length} hint(s) for the extractor (seeded ${seed.id})`);
  return hits.results.map((r) => ({ id: r.id, text: r.text }));
}

/** Personas, the graph (declared once), then workers that pull, an approver at the gate inbox, and learning. */
export async function runHealthDag(o: DemoOptions): Promise<DemoSummary> {
  const log = o.log ?? (() => {});
  const cases = o.cases ?? [...goldenCases(), ...hardCases()];
  const api: Api = createApi({ baseUrl: o.baseUrl, token: o.workerToken });
  const admin: Api = createApi({ baseUrl: o.baseUrl, token: o.adminToken });
  const memories = await seedMemories(api, `team/${o.teamId}/org/health-dag`, log);
  for (const [persona_id, p] of Object.entries(HEALTH_PERSONAS))
    await unwrap(admin.v1.personas[":persona_id"].$put({ param: { persona_id }, json: { ...p, enabled: true } }));
  log(
    `personas: ${Object.entries(HEALTH_PERSONAS)
      .map(([id, p]) => `${id} (limit ${p.concurrency_limit})`)
      .join(", ")}`,
  );

  const items = healthDagItems(cases.map((c) => ({ doc_id: c.doc.doc_id, kind: c.doc.kind, noise: c.doc.noise })));
  const run = await unwrap(
    api.v1.runs.$post({
      json: {
        goal: "Health: Extract & Verify",
        template: "health-dag",
        budget: { input_tokens: 800, output_tokens: 200 },
        items,
      },
    }),
  );
  const workerCount = o.workers ?? 3;
  log(`run ${run.run_id} declared: ${items.length} items for ${cases.length} documents; ${workerCount} workers pull`);

  const floor: Floor = {
    api,
    approver: createApi({ baseUrl: o.baseUrl, token: o.approverToken }),
    runId: run.run_id,
    teamId: o.teamId,
    docs: new Map(cases.map((c) => [c.doc.doc_id, c])),
    extractor: o.extractor ?? ruleExtractor,
    memories,
    log,
    deadline: Date.now() + (o.timeoutMs ?? 300_000),
    idleMs: o.idleMs ?? 400,
    reprompted: new Set(),
    inFlight: { extractor: 0, cpu: 0 },
    tally: {
      passed: 0,
      reprompts: 0,
      heartbeats: 0,
      memories_written: 1,
      tokens: { in: 0, out: 0 },
      used_mem_ids: [],
      dead_letters: [],
      gates: [],
      max_in_flight: { extractor: 0, cpu: 0 },
    },
  };
  let finished = false;
  const gateDesk = approver(floor, () => finished);
  try {
    await Promise.all(Array.from({ length: workerCount }, (_, i) => worker(floor, `health-worker-${i + 1}`)));
  } finally {
    finished = true;
    await gateDesk;
  }
  return finish(api, floor, cases);
}

/** Learning (one event per task outcome and the run's completion), the final status and the signed view links. */
async function finish(api: Api, floor: Floor, cases: GoldenCase[]): Promise<DemoSummary> {
  const { runId, tally } = floor;
  await unwrap(
    api.v1.events.$post({
      json: {
        event_id: `${runId}-completed`,
        type: "run.completed",
        run_id: runId,
        skill: "extract",
        outcome: tally.dead_letters.length === 0 ? "success" : "failure",
        tasks: cases.map((c) => {
          const dl = tally.dead_letters.find((d) => d.doc_id === c.doc.doc_id);
          return {
            task_id: c.doc.doc_id,
            skill: "extract",
            outcome: dl ? "failure" : "success",
            ...(dl ? { failure_class: dl.failure_class } : {}),
            context: c.doc.kind,
          };
        }),
      },
    }),
  );
  const status = (await unwrap(api.v1.runs[":run_id"].$get({ param: { run_id: runId } }))).status;
  const views = api.v1.views;
  return {
    ...tally,
    run_id: runId,
    status,
    documents: cases.length,
    items: cases.length * 2,
    trace_url: (await unwrap(views.$post({ json: { kind: "run", run_id: runId } }))).url,
    overview_url: (await unwrap(views.$post({ json: { kind: "team" } }))).url,
  };
}

export { WardenError };
