// Finding 22.1 against a real `npm start`: 1 MiB of adversarial text (and text at each route's own cap) to every route
// that stores or forwards text never freezes the Worker — a concurrent /healthz answers within 1 s throughout, over
// what the machine's load and the request's size alone cost it (its slowest answer with nothing else sent, and while
// the same route takes ordinary text of the same length) — and is answered with a 2xx or the 4xx envelope, never a 5xx.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDevVars } from "../../scripts/dev-vars.mjs";
import { mintToken } from "../../src/auth/mint";
import { SCOPES } from "../../src/auth/tokens";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../node-server/local-server.ts";

const base = sharedServerUrl();
const TEAM = "sec-freeze";
const MIB = 1024 * 1024;
/** the largest text cap of a route (orders' input_json, completions' output) */
const ROUTE_CAP = 256 * 1024;

/**
 * Text that made the old guard backtrack: long runs of the characters of base64, e-mails, URL credentials, assignments
 * and digit groups, one after the other, `chars` long in all.
 */
function adversarial(chars: number): string {
  const runs = ["a-", "a_", "a.", "1 ", "a@", "x://a:", "password= ", "QUFB", "%41", "1111 "];
  const each = Math.floor(chars / runs.length);
  return runs.map((r) => r.repeat(Math.ceil(each / r.length)).slice(0, each)).join("");
}

/** Ordinary prose, `chars` long: what a route's work on that much text costs, to tell a freeze from a big request. */
function ordinary(chars: number): string {
  return "the extractor read the summary and filed the note. ".repeat(Math.ceil(chars / 51)).slice(0, chars);
}

/** Polls /healthz every 50 ms until stopped; the slowest answer in milliseconds. */
function watchHealth() {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${base}/healthz`);
      await res.text();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return slowest;
  };
}

/** /healthz's slowest answer over `ms` with nothing else sent: what the machine's load alone costs it. */
async function quietSlowest(ms = 500): Promise<number> {
  const stop = watchHealth();
  await new Promise((r) => setTimeout(r, ms));
  return stop();
}

describe("one request never freezes the Worker", () => {
  let tok: string;
  let runId: string;
  beforeAll(async () => {
    await sharedServerReady();
    const secret = readDevVars(join(import.meta.dirname, "../../.dev.vars")).WARDEN_JWT_SECRET as string;
    tok = await mintToken({ secret, teamId: TEAM, scopes: [...SCOPES], sub: "freeze-tester" });
    runId = ((await post("/v1/runs", { goal: "freeze drill" })).json as { run_id: string }).run_id;
  }, SHARED_SERVER_WAIT_MS);

  async function post(path: string, body: unknown) {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  /** Each text-carrying route with `text` where it carries free text. */
  async function routes(text: string, n: number): Promise<[string, () => Promise<{ status: number; text: string }>][]> {
    const order = (id: string, input: unknown) => ({
      order_id: id,
      task_id: `task-${id}`,
      goal: "summarise the document",
      input_json: input,
      output_schema_id: "extractor.v1",
      timeout_sec: 30,
    });
    // an order to complete, leased before the attack
    const leasedId = `leased-${n}`;
    await post(`/v1/runs/${runId}/orders`, order(leasedId, { doc: "small" }));
    const lease = (await post(`/v1/runs/${runId}/orders/${leasedId}/lease`, { worker_id: "w" })).json as {
      lease_id: string;
      epoch: number;
    };
    return [
      ["memory text", () => post("/v1/memory", { namespace: `team/${TEAM}/org`, class: "semantic", text })],
      [
        "memory metadata",
        () =>
          post("/v1/memory", {
            namespace: `team/${TEAM}/org`,
            class: "semantic",
            text: "a note",
            metadata: { t: text },
          }),
      ],
      ["memory query", () => post("/v1/memory/query", { namespaces: [`team/${TEAM}/org`], text })],
      ["run goal", () => post("/v1/runs", { goal: text })],
      ["order input", () => post(`/v1/runs/${runId}/orders`, order(`o-${n}`, { doc: text }))],
      [
        "completion output",
        () =>
          post(`/v1/runs/${runId}/orders/${leasedId}/complete`, {
            lease_id: lease.lease_id,
            epoch: lease.epoch,
            op_id: `op-${n}`,
            outcome: "PASS",
            output: { doc: text },
          }),
      ],
      [
        "gate context",
        () => post(`/v1/runs/${runId}/gates`, { policy_key: "x_check", op_id: `g-${n}`, context: { t: text } }),
      ],
      [
        "approval note",
        () =>
          post("/v1/approvals", {
            run_id: runId,
            op_id: `g-${n}`,
            policy_key: "x_check",
            decision: "approve_retry",
            note: text,
          }),
      ],
    ];
  }

  for (const [label, chars, n] of [
    ["1 MiB", MIB - 4096, 1],
    ["at the largest route cap", ROUTE_CAP - 4096, 2],
  ] as const) {
    it(`answers /healthz within 1 s while every text route takes ${label} of adversarial text`, async () => {
      const text = adversarial(chars);
      const answers: string[] = [];
      const reference = await routes(ordinary(chars), n + 10);
      for (const [i, [name, send]] of (await routes(text, n)).entries()) {
        const sendOrdinary = reference[i]?.[1] as () => Promise<{ status: number }>;
        const stopOrdinary = watchHealth();
        await sendOrdinary();
        const ordinarySlowest = await stopOrdinary();
        const stop = watchHealth();
        const res = await send();
        const slowest = await stop();
        // The quiet baseline can only raise the baseline above the ordinary text's: it decides the check only when the
        // attack's slowest answer is 1 s or more over the ordinary text's, and only then is it taken (half a second of
        // /healthz with nothing else sent); otherwise the check passes whatever it would have been.
        const quiet = slowest - ordinarySlowest < 1000 ? null : await quietSlowest();
        const baseline = Math.max(quiet ?? 0, ordinarySlowest);
        answers.push(
          `${name}: ${res.status}, healthz ≤ ${slowest.toFixed(0)} ms (quiet ${quiet === null ? "not needed" : `${quiet.toFixed(0)} ms`}, ordinary text ${ordinarySlowest.toFixed(0)} ms)`,
        );
        expect(res.status, `${name}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        expect(res.text).not.toContain("a-a-a-a-a-a-a-a-"); // never echoed
        expect(slowest - baseline, answers.join("\n")).toBeLessThan(1000);
      }
    });
  }
});
