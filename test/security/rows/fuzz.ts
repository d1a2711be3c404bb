// The fuzz rows: 1,000 fast-check bodies on every JSON route of /openapi.json, shaped by the route's own schema and
// hostile; no 5xx, the one envelope on every 4xx, and a refused request writes nothing (D1 and run storage read back
// once per run of refusals; bodies the schema surely refuses go out concurrently). Spread over the fuzz-*.test.ts
// files by route (describeFuzz), which vitest runs in parallel.
import { env } from "cloudflare:test";
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ROUTE_CLASSES } from "../../../src/http/rate-limits";
import { call, token } from "../../helpers";
import { addOrder, startRun } from "../../run-helpers";
import { bearerRoutes, concrete, inProcessSettled, isEnvelope, openapi, type Route, raw } from "../http";
import { settledWrites, writes } from "../state";
import { tally } from "../table";

/** Bodies per route; the issue asks for at least 1,000. */
export const FUZZ_PER_ROUTE = 1000;
/** Sure refusals sent at once (an accepted one among them shows up in the next read, which re-checks them). */
const BATCH = 25;
/** Bodies per window: sure refusals, then the bodies the route may accept, then the next window. */
const WINDOW = 100;
const SEED = 20_261_123;
const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

const nest = (n: number, inner: string) => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;

/** Any JSON value a hostile client sends: wrong types, huge numbers, long strings, unicode, prototype keys. */
const hostile: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 20 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1e-320, 0),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom("", " ", "\u0000", "\u202e", "../../etc/passwd", "<script>"),
    // long strings: a few fixed ones (generating and scanning random 70 KB strings would dominate the fuzz's time)
    fc.constantFrom("🤖".repeat(500), "x".repeat(5000), "a ".repeat(35_000)),
    fc.array(tie("v"), { maxLength: 4 }),
    tie("o"),
  ),
  o: fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 })), tie("v"), {
    maxKeys: 5,
  }),
})).v;

/** A value of the route's schema (OpenAPI 3.1 / JSON Schema), each field sometimes replaced by a hostile one. */
function shaped(s: any, doc: any, depth = 0): fc.Arbitrary<unknown> {
  if (s?.$ref) return shaped(doc.components.schemas[s.$ref.split("/").pop()], doc, depth);
  if (!s || depth > 5) return hostile;
  let typed: fc.Arbitrary<unknown>;
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (s.enum) typed = fc.constantFrom(...s.enum);
  else if (s.const !== undefined) typed = fc.constant(s.const);
  else if (s.anyOf || s.oneOf || s.allOf) {
    typed = fc.oneof(...(s.anyOf ?? s.oneOf ?? s.allOf).map((x: any) => shaped(x, doc, depth + 1)));
  } else if (types.length > 1) typed = fc.oneof(...types.map((type) => shaped({ ...s, type }, doc, depth)));
  else
    switch (types[0]) {
      case "object": {
        const props = Object.entries<any>(s.properties ?? {});
        const record = fc.record(Object.fromEntries(props.map(([k, v]) => [k, shaped(v, doc, depth + 1)])), {
          requiredKeys: (s.required ?? []).filter((k: string) => s.properties?.[k]),
        });
        typed =
          s.additionalProperties && typeof s.additionalProperties === "object"
            ? fc
                .tuple(
                  record,
                  fc.dictionary(fc.string({ maxLength: 8 }), shaped(s.additionalProperties, doc, depth + 1), {
                    maxKeys: 3,
                  }),
                )
                .map(([a, b]) => ({ ...b, ...a }))
            : record;
        break;
      }
      case "array":
        typed = fc.array(shaped(s.items, doc, depth + 1), { maxLength: 3 });
        break;
      case "string":
        typed =
          s.format === "date-time"
            ? fc.integer({ min: 0, max: 4e12 }).map((ms) => new Date(ms).toISOString())
            : fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, 24) });
        break;
      case "integer":
        typed = fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 1000 });
        break;
      case "number":
        typed = fc.double({ min: s.minimum ?? -10, max: s.maximum ?? 1000, noNaN: true });
        break;
      case "boolean":
        typed = fc.boolean();
        break;
      case "null":
        typed = fc.constant(null);
        break;
      default:
        typed = hostile;
    }
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostile });
}

/** A request body's text: the route's shape gone wrong, arrays for objects, blanks, prototype keys, deep nesting. */
export function bodyText(schema: any, doc: any): fc.Arbitrary<string> {
  const shape = shaped(schema, doc);
  const keys = Object.keys(
    (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema)?.properties ?? {},
  );
  const withRaw = (json: string, member: string) =>
    json.startsWith("{") && json !== "{}" ? `{${member},${json.slice(1)}` : `{${member}}`;
  return fc.oneof(
    { weight: 10, arbitrary: shape.map((v) => JSON.stringify(v) ?? "null") },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(fc.oneof(fc.constantFrom(...keys, ...PROTO_KEYS), fc.string({ maxLength: 10 })), hostile, {
          maxKeys: 6,
        })
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: fc.array(shape, { maxLength: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "\n\t  ",
        "null",
        "0",
        "-1e309",
        "true",
        '"x"',
        "[]",
        "{}",
        "{",
        '{"a":1,}',
        "\u0000",
        "\ufeff{}",
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(shape, fc.constantFrom(...PROTO_KEYS), hostile)
        .map(([v, k, h]) =>
          withRaw(JSON.stringify(v) ?? "null", `${JSON.stringify(k)}:${JSON.stringify(h) ?? "null"}`),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shape, fc.constantFrom(...(keys.length ? keys : ["x"])), fc.integer({ min: 20, max: 64 }))
        .map(([v, k, n]) => withRaw(JSON.stringify(v) ?? "null", `${JSON.stringify(k)}:${nest(n - 1, "1")}`)),
    },
  );
}

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

const validators = new WeakMap<object, Validator>();
/** The route's request schema as a JSON Schema 2020-12 validator, its `#/components/...` references resolvable. */
function validatorFor(schema: any, doc: any): Validator {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator({ ...schema, components: doc.components }, "2020-12", true);
    validators.set(schema, v);
  }
  return v;
}

/**
 * Whether a body breaks its route's schema (not JSON, not an object, a required field missing, a field of the wrong
 * type or outside its enum, or anything else /openapi.json's schema refuses), so the server will surely refuse it. It
 * only decides when the write counters are read: sure refusals go out in concurrent batches, checked with one read after
 * their run; the bodies it passes go out one after another, then one settled read. A guess it gets wrong costs a
 * re-check, never a missed write (see `recheck` and `refusedRun`).
 */
export function surelyRefused(text: string, schema: any, doc: any): boolean {
  const s = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text.trim() !== "";
  }
  if (!JSON_TYPES.object?.(v)) return true;
  const body = v as Record<string, unknown>;
  if ((s?.required ?? []).some((k: string) => !Object.hasOwn(body, k))) return true;
  const wrongField = Object.entries<any>(s?.properties ?? {}).some(([k, p]) => {
    if (!Object.hasOwn(body, k) || !p || p.$ref || p.anyOf || p.oneOf || p.allOf) return false;
    if (p.enum) return !p.enum.includes(body[k]);
    const types: string[] = Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
    return types.length > 0 && types.every((t) => JSON_TYPES[t] && !JSON_TYPES[t]?.(body[k]));
  });
  return wrongField || !validatorFor(schema, doc).validate(body).valid;
}

/** A fresh team per route: its own rate limits lifted (a team_limit row per class), a run, an order and an open gate. */
/** FNV-1a of the route's method and path: a seed that stays put when other routes come and go. */
function routeSeed(route: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < route.length; k++) h = Math.imul(h ^ route.charCodeAt(k), 0x01000193) >>> 0;
  return h % 1_000_000;
}

async function seed(i: number) {
  const team = `fuzz-${String(i).padStart(2, "0")}`;
  await env.DB.batch(
    ROUTE_CLASSES.map((c) =>
      env.DB.prepare(
        "INSERT INTO team_limit (team_id, route_class, per_team, per_subject, period_s, updated_at) VALUES (?, ?, 1000000, 1000000, 60, ?)",
      ).bind(team, c, Date.now()),
    ),
  );
  const fuzzer = await token(team, undefined, { sub: `fuzzer-${team}` });
  const worker = await token(team, undefined, { sub: `worker-${team}` });
  const run = (await startRun(worker)).run_id;
  // the write counters must see a write in D1 and in the run object, or "refused writes nothing" proves nothing
  const empty = await writes([run]);
  await addOrder(worker, run, "o1");
  const [doBefore, d1Before] = empty.split(":");
  const [doAfter, d1After] = (await writes([run])).split(":");
  expect(doAfter !== doBefore && d1After !== d1Before, `${empty} → ${doAfter}:${d1After}`).toBe(true);
  const gate = await call("POST", `/v1/runs/${run}/gates`, {
    token: worker,
    body: { op_id: "fz-gate", policy_key: "wrong_value" },
  });
  if (gate.status !== 200) throw new Error(`open gate → ${gate.status} ${gate.text}`);
  return { team, fuzzer, worker, run, gate: gate.json.gate_id as string };
}

// The routes are read once at import (top-level await), so each route is its own test with its own time limit.
const doc = await openapi();
const tokensRoute = doc.paths["/v1/tokens"]?.post;
const fuzzed: Route[] = [
  ...(await bearerRoutes(doc)).filter((r) => r.body),
  ...(tokensRoute ? [{ method: "POST", path: "/v1/tokens", body: true, op: tokensRoute }] : []),
];

/** The routes of shard `shard` of `shards` (every `shards`-th route), so the fuzz spreads over test files that run in
 * parallel; together the shards cover every route once. */
export const FUZZ_SHARDS = 3;

/** Registers the fuzz of one shard's routes; shard 0 also checks that the routes cover every JSON route. */
export function describeFuzz(shard: number) {
  const mine = fuzzed.map((r, i) => [`${r.method} ${r.path}`, i] as const).filter(([, i]) => i % FUZZ_SHARDS === shard);
  describe(`fuzz (shard ${shard + 1} of ${FUZZ_SHARDS})`, () => {
    const started = Date.now();
    afterAll(() => console.log(`fuzz: ${mine.length} routes × ${FUZZ_PER_ROUTE} bodies in ${Date.now() - started} ms`));

    if (shard === 0)
      it("covers every JSON route of /openapi.json", () => {
        expect(fuzzed.length).toBeGreaterThan(25);
        expect(fuzzed.map((r) => r.path)).toContain("/v1/tokens");
      });

    it.each(mine)(
      `%s: ${FUZZ_PER_ROUTE} bodies, no 5xx, the envelope on every 4xx, refusals write nothing`,
      async (_name, i) => {
        const r = fuzzed[i] as Route;
        const s = await seed(i);
        let bearer = s.fuzzer;
        if (r.path === "/v1/tokens") {
          // authenticated by an API key, not a capability token
          const key = await call("POST", "/v1/keys", {
            token: s.fuzzer,
            body: { subject: "agent:fuzz", scopes: ["runs:read"] },
          });
          bearer = key.json.key;
        }
        const path = concrete(r.path, { run: s.run, gate: s.gate });
        const bodies = fc.sample(bodyText(r.op.requestBody.content["application/json"].schema, doc), {
          // per route, not per position: adding a route elsewhere does not change this route's bodies
          seed: SEED + routeSeed(`${r.method} ${r.path}`),
          numRuns: FUZZ_PER_ROUTE,
        });
        const schema = r.op.requestBody.content["application/json"].schema;
        const send = (body: string) =>
          raw(
            r.method,
            path,
            { headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" }, body },
            "in-process",
          );
        // the counters as last read, and the refused bodies sent since (none of them accepted): one read checks them all
        let before = await settledWrites([s.run]);
        let pending: string[] = [];
        /** Checks the pending run of refusals with one read; on a mismatch re-sends them one by one to name the body. */
        const refusedRun = async () => {
          if (pending.length === 0) return;
          const run = pending;
          pending = [];
          const after = await writes([s.run]);
          tally("fuzz: refused writes nothing", { tried: run.length, passed: after === before ? run.length : 0 });
          if (after !== before) {
            let culprit = `one of ${run.length} refused bodies wrote, the first: ${run[0]?.slice(0, 200)}`;
            let last = after;
            for (const body of run) {
              const res = await send(body);
              const again = await writes([s.run]);
              if (res.status >= 400 && again !== last)
                culprit = `refused (${res.status}) but wrote: ${body.slice(0, 200)}`;
              last = again;
            }
            expect.fail(culprit);
          }
          before = after;
        };
        let refused = 0;
        let reread = 0;
        /** The answer's row (no 5xx, no 429, the envelope on every 4xx, no stack trace); true when it was a refusal. */
        const answered = (body: string, res: Awaited<ReturnType<typeof send>>) => {
          const leaked = /\n\s+at /.test(res.text) ? 1 : 0;
          const ok = res.status < 500 && res.status !== 429 && (res.status < 400 || isEnvelope(res.json)) && !leaked;
          tally("fuzz: no 5xx, one envelope", { tried: 1, passed: ok ? 1 : 0, leaked });
          expect(ok, `${body.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
          return res.status >= 400;
        };
        /**
         * Refusals whose reads an accepted request blurred: once its writes have settled, they are sent again back to
         * back and checked with one read (they were refused, so the same bodies must be refused again); if one is
         * accepted this time (the state moved on), each is sent and read on its own.
         */
        const recheck = async (blurred: string[]) => {
          reread += blurred.length;
          before = await settledWrites([s.run]);
          const again: string[] = [];
          for (const body of blurred) if ((await send(body)).status >= 400) again.push(body);
          if (again.length === blurred.length) {
            pending.push(...again);
            return refusedRun();
          }
          before = await settledWrites([s.run]);
          for (const body of blurred) {
            if ((await send(body)).status < 400) before = await settledWrites([s.run]);
            else {
              pending.push(body);
              await refusedRun();
            }
          }
        };
        // A window at a time: its sure refusals first, BATCH at a time concurrently, closed by one read; then its other
        // bodies one after another and one settled read. Windows keep accepted writes interleaved with later refusals.
        for (let w = 0; w < bodies.length; w += WINDOW) {
          const window = bodies.slice(w, w + WINDOW);
          const isSure = window.map((b) => surelyRefused(b, schema, doc));
          const sure = window.filter((_, j) => isSure[j]);
          const maybe = window.filter((_, j) => !isSure[j]);
          for (let k = 0; k < sure.length; k += BATCH) {
            const batch = sure.slice(k, k + BATCH);
            const answers = await Promise.all(batch.map(send));
            const no = batch.filter((b, j) => answered(b, answers[j] as Awaited<ReturnType<typeof send>>));
            refused += no.length;
            pending.push(...no);
            // guessed wrong: one was accepted amid the refusals, whose reads it blurs
            if (no.length < batch.length) {
              const blurred = pending;
              pending = [];
              await recheck(blurred);
            }
          }
          await refusedRun();
          const no: string[] = [];
          for (const body of maybe) if (answered(body, await send(body))) no.push(body);
          refused += no.length;
          if (no.length === maybe.length) {
            pending.push(...no);
            await refusedRun();
          } else if (no.length > 0) await recheck(no);
          // accepted: their writes (and those other runs flush after the response) are the new baseline
          else before = await settledWrites([s.run]);
        }
        await inProcessSettled();
        if (reread > 0)
          console.log(
            `fuzz: ${r.method} ${r.path}: ${reread} refused bodies re-sent (an accepted one blurred their read)`,
          );
        // most bodies are wrong; a route that accepted nearly all of them would not be fuzzed at all
        expect(refused).toBeGreaterThan(FUZZ_PER_ROUTE / 2);
      },
    );
  });
}
