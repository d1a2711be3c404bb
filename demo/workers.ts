// The Health DAG's workers and approver: each only pulls (lease-next), heartbeats and completes; nobody sequences.

import { type Api, unwrap } from "../src/client/index.ts";
import { extractItemId } from "../src/features/board/health-dag.ts";
import type { Extractor, MemoryHint } from "./health/extractor.ts";
import { restyle } from "./health/restyler.ts";
import type { GoldenCase, Truth } from "./health/schema.ts";
import { schemaGuard } from "./health/schema-guard.ts";
import { persistRecord, verify } from "./health/verifier.ts";

/** The personas a worker offers to act as, in this order, on each pull. */
export const WORKER_PERSONAS = ["extractor", "cpu"] as const;
type Persona = (typeof WORKER_PERSONAS)[number];

/** What the workers and the approver share: the clients, the documents, and the summary they fill in. */
export type Floor = {
  api: Api;
  approver: Api;
  runId: string;
  teamId: string;
  docs: Map<string, GoldenCase>;
  extractor: Extractor;
  memories: MemoryHint[];
  log: (line: string) => void;
  /** give up (throw) after this instant: a demo that cannot finish says so */
  deadline: number;
  /** how long an idle worker or the approver waits before asking again */
  idleMs: number;
  /** doc ids whose extraction passed only after the stricter re-prompt */
  reprompted: Set<string>;
  /** leases each persona holds right now, across the workers */
  inFlight: Record<Persona, number>;
  tally: {
    passed: number;
    reprompts: number;
    heartbeats: number;
    memories_written: number;
    tokens: { in: number; out: number };
    used_mem_ids: string[];
    dead_letters: Array<{ doc_id: string; failure_class: string; findings: unknown }>;
    gates: Array<{ doc_id: string; gate_id: string; policy_key: string; decision: string }>;
    /** leases held at once per persona, as the workers saw them (the caps: extractor 1, cpu 2) */
    max_in_flight: Record<Persona, number>;
  };
};

/** What a worker reads of a lease-next answer (the lease and the order itself). */
type Lease = {
  run_id: string;
  order_id: string;
  lease_id: string;
  epoch: number;
  attempt: number;
  strict: boolean;
  order: { input_json: Record<string, unknown> };
};
type Leased = { persona: Persona; lease: Lease };
const TERMINAL = ["COMPLETE", "DEAD_LETTER", "STOPPED"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pull(floor: Floor, workerId: string, persona: Persona): Promise<Leased | null> {
  const lease = await unwrap(
    floor.api.v1.orders["lease-next"].$post({ json: { worker_id: workerId, persona_id: persona } }),
  );
  // 204 (nothing for this persona now) unwraps to undefined
  return lease ? { persona, lease: lease as Lease } : null;
}

/** Whether the run has ended (every item passed, dead-lettered or skipped). */
async function runEnded(floor: Floor): Promise<boolean> {
  const run = await unwrap(floor.api.v1.runs[":run_id"].$get({ param: { run_id: floor.runId } }));
  return TERMINAL.includes(run.status);
}

/** One worker: pulls as each persona in turn, does the item, and stops once the run has ended. */
export async function worker(floor: Floor, workerId: string): Promise<void> {
  const { inFlight } = floor;
  for (;;) {
    if (Date.now() > floor.deadline) throw new Error(`${workerId}: the run did not end in time`);
    let got: Leased | null = null;
    for (const persona of WORKER_PERSONAS) {
      got = await pull(floor, workerId, persona);
      if (got) break;
    }
    if (!got) {
      if (await runEnded(floor)) return;
      await sleep(floor.idleMs);
      continue;
    }
    if (got.lease.run_id !== floor.runId)
      throw new Error(
        `${workerId} leased ${got.lease.order_id} of another run (${got.lease.run_id}): use a fresh team`,
      );
    inFlight[got.persona]++;
    floor.tally.max_in_flight[got.persona] = Math.max(floor.tally.max_in_flight[got.persona], inFlight[got.persona]);
    try {
      await heartbeat(floor, got.lease);
      if (got.persona === "extractor") await extract(floor, got.lease);
      else await persist(floor, got.lease);
    } finally {
      inFlight[got.persona]--;
    }
  }
}

async function heartbeat(floor: Floor, lease: Leased["lease"]) {
  await unwrap(
    floor.api.v1.runs[":run_id"].orders[":order_id"].heartbeat.$post({
      param: { run_id: lease.run_id, order_id: lease.order_id },
      json: { lease_id: lease.lease_id, epoch: lease.epoch },
    }),
  );
  floor.tally.heartbeats++;
}

const complete = (floor: Floor, lease: Leased["lease"], json: Record<string, unknown>) =>
  unwrap(
    floor.api.v1.runs[":run_id"].orders[":order_id"].complete.$post({
      param: { run_id: lease.run_id, order_id: lease.order_id },
      json: {
        lease_id: lease.lease_id,
        epoch: lease.epoch,
        op_id: opId(lease),
        ...json,
      } as never,
    }),
  );

/** One op per attempt: `<order_id>-a<attempt>` (the approver reads the document back from it). */
const opId = (lease: Lease) => `${lease.order_id}-a${lease.attempt}`;
const docOfOp = (op: string) => op.replace(/^extract-/, "").replace(/-a\d+$/, "");

const docOf = (floor: Floor, lease: Leased["lease"]) => {
  const c = floor.docs.get(String(lease.order.input_json.doc_id));
  if (!c) throw new Error(`${lease.order_id}: no document ${String(lease.order.input_json.doc_id)}`);
  return c;
};

/** ExtractorLLM → JsonRestyler → SchemaGuard; the server answers what comes next (gate, retry, dead letter). */
async function extract(floor: Floor, lease: Leased["lease"]) {
  const c = docOf(floor, lease);
  if (lease.strict) {
    floor.tally.reprompts++;
    floor.reprompted.add(c.doc.doc_id);
  }
  const {
    output: raw,
    tokens_in,
    tokens_out,
  } = await floor.extractor(c.doc, {
    strict: lease.strict,
    memories: floor.memories,
  });
  const verdict = schemaGuard(restyle(raw), c.truth);
  floor.tally.tokens.in += tokens_in;
  floor.tally.tokens.out += tokens_out;
  const done = await complete(floor, lease, {
    outcome: verdict.pass ? "PASS" : "DECLINE",
    ...(verdict.pass ? {} : { failure_class: verdict.failure_class }),
    tokens_in,
    tokens_out,
    output: verdict.pass
      ? { fields: verdict.fields, used_mem_ids: verdict.used_mem_ids }
      : { findings: verdict.findings },
  });
  if (verdict.pass) return;
  if (done.next === "gate") {
    floor.log(`  ${c.doc.doc_id}: ${verdict.failure_class} → gate ${done.gate_id} (the approver decides)`);
  } else if (done.next === "dead_letter") {
    // a reissued extraction that fails again is the same document's dead letter, counted once
    if (floor.tally.dead_letters.some((d) => d.doc_id === c.doc.doc_id)) return;
    floor.tally.dead_letters.push({
      doc_id: c.doc.doc_id,
      failure_class: verdict.failure_class,
      findings: verdict.findings,
    });
    floor.log(`  ${c.doc.doc_id}: ${verdict.failure_class} → dead letter (its persist is skipped)`);
  }
}

/** Persister → Verifier: the extraction arrives under input_json.deps; the summary goes to memory. */
async function persist(floor: Floor, lease: Leased["lease"]) {
  const c = docOf(floor, lease);
  const deps = lease.order.input_json.deps as Record<string, { fields: Truth; used_mem_ids: string[] }>;
  const extracted = deps[extractItemId(c.doc.doc_id)];
  if (!extracted?.fields) throw new Error(`${lease.order_id}: no extraction under input_json.deps`);
  const record = persistRecord(c.doc, extracted.fields);
  const checked = verify(record, extracted.fields);
  if (!checked.ok) {
    await complete(floor, lease, {
      outcome: "DECLINE",
      failure_class: "wrong_value",
      output: { reason: checked.reason },
    });
    floor.tally.dead_letters.push({ doc_id: c.doc.doc_id, failure_class: "verify_failed", findings: checked.reason });
    return;
  }
  await unwrap(
    floor.api.v1.memory.$post({
      json: {
        namespace: `team/${floor.teamId}/run/${floor.runId}`,
        class: "episodic",
        text: record.summary,
        tags: ["health-dag", c.doc.kind],
        metadata: { digest: record.digest },
      },
    }),
  );
  floor.tally.memories_written++;
  if (extracted.used_mem_ids.length > 0) {
    await unwrap(floor.api.v1.memory.use.$post({ json: { ids: extracted.used_mem_ids, run_id: floor.runId } }));
    for (const id of extracted.used_mem_ids)
      if (!floor.tally.used_mem_ids.includes(id)) floor.tally.used_mem_ids.push(id);
  }
  await complete(floor, lease, { outcome: "PASS", output: { digest: record.digest } });
  floor.tally.passed++;
  floor.log(`  ${c.doc.doc_id}: PASS${floor.reprompted.has(c.doc.doc_id) ? " (after the stricter re-prompt)" : ""}`);
}

/**
 * The approver, as a person at the gate inbox would: every open gate of this run gets approve_retry from a second
 * identity — schema_invalid → one stricter re-prompt; a wrong value's first dead_letter_review → one more attempt
 * (the reissued extraction waits for the extractor's cap like any item). A second review of the same document waits
 * for a person who reads it (the demo's golden set keeps that dead letter). Polls until `done()`.
 */
export async function approver(floor: Floor, done: () => boolean): Promise<void> {
  const decided = new Set<string>();
  const reviewed = new Set<string>();
  while (!done()) {
    const { gates } = await unwrap(floor.approver.v1.gates.$get({ query: { status: "open" } }));
    const mine = gates.filter((x) => x.run_id === floor.runId && !decided.has(x.gate_id));
    for (const g of mine) {
      const doc_id = docOfOp(g.op_id);
      const review = g.policy_key === "dead_letter_review";
      if (review && reviewed.has(doc_id)) continue;
      decided.add(g.gate_id);
      if (review) reviewed.add(doc_id);
      const note = review ? "one more attempt after reading the evidence" : "one stricter re-prompt";
      await unwrap(
        floor.approver.v1.gates[":gate_id"].decision.$post({
          param: { gate_id: g.gate_id },
          json: { decision: "approve_retry", note },
        }),
      );
      floor.tally.gates.push({ doc_id, gate_id: g.gate_id, policy_key: g.policy_key, decision: "approve_retry" });
      floor.log(
        `  ${doc_id}: gate ${g.gate_id} (${g.policy_key}) approved → ${review ? "reissued once" : "stricter re-prompt"}`,
      );
    }
    await sleep(floor.idleMs);
  }
}
