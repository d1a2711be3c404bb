// Drives the Health DAG against a Warden server through the typed client, as remote agents would; returns a summary.
import { type Api, createApi, unwrap, WardenError } from "../src/client/index.ts";
import { type Extractor, type MemoryHint, ruleExtractor } from "./health/extractor.ts";
import { goldenCases, hardCases } from "./health/golden.ts";
import { restyle } from "./health/restyler.ts";
import type { GoldenCase } from "./health/schema.ts";
import { schemaGuard } from "./health/schema-guard.ts";
import { persistRecord, verify } from "./health/verifier.ts";

export type DemoOptions = {
  baseUrl: string;
  teamId: string;
  /** the orchestrator and workers (runs:write, memory, events) */
  workerToken: string;
  /** a different identity for approvals: nobody approves their own request */
  approverToken: string;
  extractor?: Extractor;
  cases?: GoldenCase[];
  log?: (line: string) => void;
};

export type DemoSummary = {
  run_id: string;
  status: string;
  documents: number;
  passed: number;
  dead_letters: Array<{ doc_id: string; failure_class: string; findings: unknown }>;
  gates: Array<{ doc_id: string; gate_id: string; policy_key: string; decision: string }>;
  reprompts: number;
  heartbeats: number;
  used_mem_ids: string[];
  memories_written: number;
  tokens: { in: number; out: number };
  trace_url: string | null;
  overview_url: string | null;
};

/** One order per document: lease → heartbeat → extract → restyle → guard → complete; the server decides the next step. */
export async function runHealthDag(o: DemoOptions): Promise<DemoSummary> {
  const log = o.log ?? (() => {});
  const extractor = o.extractor ?? ruleExtractor;
  const cases = o.cases ?? [...goldenCases(), ...hardCases()];
  const api: Api = createApi({ baseUrl: o.baseUrl, token: o.workerToken });
  const approver: Api = createApi({ baseUrl: o.baseUrl, token: o.approverToken });
  const ns = `team/${o.teamId}/org/health-dag`;

  // Knowledge the extractor may cite (and the Persister's namespace).
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
  const memories: MemoryHint[] = hits.results.map((r) => ({ id: r.id, text: r.text }));
  log(`memory: ${memories.length} hint(s) for the extractor (seeded ${seed.id})`);

  const run = await unwrap(
    api.v1.runs.$post({
      json: {
        goal: "Health: Extract & Verify",
        template: "health-dag",
        skills: ["extract"],
        budget: { input_tokens: 800, output_tokens: 200 },
      },
    }),
  );
  const runId = run.run_id;
  log(`run ${runId} started`);
  const R = api.v1.runs[":run_id"];

  const summary: DemoSummary = {
    run_id: runId,
    status: "",
    documents: cases.length,
    passed: 0,
    dead_letters: [],
    gates: [],
    reprompts: 0,
    heartbeats: 0,
    used_mem_ids: [],
    memories_written: 1,
    tokens: { in: 0, out: 0 },
    trace_url: null,
    overview_url: null,
  };

  for (const c of cases) {
    const orderId = `extract-${c.doc.doc_id}`;
    await unwrap(
      R.orders.$post({
        param: { run_id: runId },
        json: {
          order_id: orderId,
          task_id: c.doc.doc_id,
          goal: `extract ${c.doc.kind} fields`,
          input_json: { doc_id: c.doc.doc_id, kind: c.doc.kind, noise: c.doc.noise },
          namespaces: [ns],
          output_schema_id: "extractor-output.v1",
          timeout_sec: 60,
        },
      }),
    );
    for (let n = 1; ; n++) {
      const lease = await unwrap(
        R.orders[":order_id"].lease.$post({
          param: { run_id: runId, order_id: orderId },
          json: { worker_id: "health-worker-1" },
        }),
      );
      await unwrap(
        R.orders[":order_id"].heartbeat.$post({
          param: { run_id: runId, order_id: orderId },
          json: { lease_id: lease.lease_id, epoch: lease.epoch },
        }),
      );
      summary.heartbeats++;
      if (lease.strict) summary.reprompts++;
      const { output: raw, tokens_in, tokens_out } = await extractor(c.doc, { strict: lease.strict, memories });
      const output = restyle(raw);
      const verdict = schemaGuard(output, c.truth);
      summary.tokens.in += tokens_in;
      summary.tokens.out += tokens_out;
      const op_id = `${orderId}-a${n}`;
      const done = await unwrap(
        R.orders[":order_id"].complete.$post({
          param: { run_id: runId, order_id: orderId },
          json: {
            lease_id: lease.lease_id,
            epoch: lease.epoch,
            op_id,
            outcome: verdict.pass ? "PASS" : "DECLINE",
            ...(verdict.pass ? {} : { failure_class: verdict.failure_class }),
            tokens_in,
            tokens_out,
            output: verdict.pass
              ? { fields: verdict.fields, used_mem_ids: verdict.used_mem_ids }
              : { findings: verdict.findings },
          },
        }),
      );
      if (verdict.pass) {
        // Persister → Verifier, then the validated use of the cited memories.
        const record = persistRecord(c.doc, verdict.fields);
        const checked = verify(record, verdict.fields);
        if (!checked.ok) throw new Error(`verifier: ${checked.reason} for ${c.doc.doc_id}`);
        await unwrap(
          api.v1.memory.$post({
            json: {
              namespace: `team/${o.teamId}/run/${runId}`,
              class: "episodic",
              text: record.summary,
              tags: ["health-dag", c.doc.kind],
              metadata: { digest: record.digest },
            },
          }),
        );
        summary.memories_written++;
        if (verdict.used_mem_ids.length > 0) {
          await unwrap(api.v1.memory.use.$post({ json: { ids: verdict.used_mem_ids, run_id: runId } }));
          for (const id of verdict.used_mem_ids) if (!summary.used_mem_ids.includes(id)) summary.used_mem_ids.push(id);
        }
        summary.passed++;
        log(`  ${c.doc.doc_id}: PASS${n > 1 ? " (after the stricter re-prompt)" : ""}`);
        break;
      }
      if (done.next === "gate" && done.gate_id) {
        // schema_invalid → soft gate (auto-allows after 2 min); the demo's approver decides now instead of waiting.
        await unwrap(
          approver.v1.approvals.$post({
            json: {
              run_id: runId,
              op_id,
              policy_key: verdict.failure_class,
              decision: "approve_retry",
              note: "one stricter re-prompt",
            },
          }),
        );
        summary.gates.push({
          doc_id: c.doc.doc_id,
          gate_id: done.gate_id,
          policy_key: verdict.failure_class,
          decision: "approve_retry",
        });
        log(`  ${c.doc.doc_id}: ${verdict.failure_class} → gate ${done.gate_id} approved → stricter re-prompt`);
        continue;
      }
      if (done.next === "retry") {
        await new Promise((r) => setTimeout(r, done.retry_after_ms ?? 1000));
        continue;
      }
      summary.dead_letters.push({
        doc_id: c.doc.doc_id,
        failure_class: verdict.failure_class,
        findings: verdict.findings,
      });
      log(`  ${c.doc.doc_id}: ${verdict.failure_class} → ${done.next}`);
      break;
    }
  }

  // Learning: one event per task outcome and the run's completion feed the policy-memory consumer.
  await unwrap(
    api.v1.events.$post({
      json: {
        event_id: `${runId}-completed`,
        type: "run.completed",
        run_id: runId,
        skill: "extract",
        outcome: summary.dead_letters.length === 0 ? "success" : "failure",
        tasks: cases.map((c) => {
          const dl = summary.dead_letters.find((d) => d.doc_id === c.doc.doc_id);
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
  summary.status = (await unwrap(R.$get({ param: { run_id: runId } }))).status;

  const views = api.v1.views;
  summary.trace_url = (await unwrap(views.$post({ json: { kind: "run", run_id: runId } }))).url;
  summary.overview_url = (await unwrap(views.$post({ json: { kind: "team" } }))).url;
  return summary;
}

export { WardenError };
