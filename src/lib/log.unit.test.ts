// The logger: one parseable JSON line per call with the scope's correlation fields, and no console call elsewhere.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addLogContext,
  CORRELATION_FIELDS,
  logContext,
  logLine,
  messageCorrelation,
  sharedCorrelation,
  withLogContext,
} from "./log";

const ROOT = join(import.meta.dirname, "../..");
const id = fc.string({ minLength: 1, maxLength: 20 });

describe("logLine", () => {
  it("writes level, msg and every correlation field of the scope, whatever the values", () => {
    fc.assert(
      fc.property(
        fc.record({ team_id: id, run_id: id, task_id: id, order_id: id, step_id: id, persona_id: id, request_id: id }),
        fc.string(),
        (fields, msg) => {
          const line = withLogContext(fields, () => JSON.parse(logLine("warn", msg, { n: 1 })));
          expect(line).toEqual({ level: "warn", msg, ...fields, n: 1 });
        },
      ),
    );
  });

  it("nests scopes (the inner adds, the outer is unchanged) and keeps them across awaits", async () => {
    await withLogContext({ team_id: "t1", request_id: "req_1" }, async () => {
      await withLogContext({ run_id: "r1" }, async () => {
        await Promise.resolve();
        expect(logContext()).toEqual({ team_id: "t1", request_id: "req_1", run_id: "r1" });
      });
      expect(logContext()).toEqual({ team_id: "t1", request_id: "req_1" });
    });
    expect(logContext()).toEqual({});
  });

  it("fills fields learnt part-way without overwriting the ones the scope has, and ignores empty or non-string ones", () => {
    withLogContext({ run_id: "from-path" }, () => {
      addLogContext({ run_id: "from-token", team_id: "t1", task_id: "", persona_id: 7 });
      expect(logContext()).toEqual({ run_id: "from-path", team_id: "t1" });
    });
  });

  it("adds nothing outside a scope, writes errors as text and keeps a line whose fields cannot be serialised", () => {
    addLogContext({ team_id: "nowhere" });
    expect(JSON.parse(logLine("error", "boom", { error: new Error("x"), skipped: undefined }))).toEqual({
      level: "error",
      msg: "boom",
      error: "Error: x",
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const line = withLogContext({ team_id: "t1" }, () => JSON.parse(logLine("info", "cycle", { cyclic })));
    expect(line).toEqual({ level: "info", msg: "cycle", team_id: "t1", fields_unserialisable: true });
  });

  it("names the seed's correlation fields", () => {
    expect([...CORRELATION_FIELDS].sort()).toEqual(
      ["order_id", "persona_id", "request_id", "run_id", "step_id", "task_id", "team_id"].sort(),
    );
  });
});

/** Production TypeScript under a folder (tests and the logger itself excluded). */
function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "wasm" ? [] : productionFiles(path);
    return e.name.endsWith(".ts") && !e.name.includes(".test.") ? [path] : [];
  });
}

describe("the logger is the only console caller", () => {
  it("finds no console call in src/ or durable-objects/ outside src/lib/log.ts", () => {
    const offenders = ["src", "durable-objects"]
      .flatMap((d) => productionFiles(join(ROOT, d)))
      .filter((f) => relative(ROOT, f) !== join("src", "lib", "log.ts"))
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .flatMap((line, i) => (/\bconsole\s*(\.\s*\w+|\[)/.test(line) ? [`${relative(ROOT, f)}:${i + 1}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});

describe("queue message correlation", () => {
  const body = fc.record(
    { team_id: fc.constantFrom("t1", "t2"), run_id: fc.constantFrom("r1", "r2"), text: fc.string() },
    { requiredKeys: [] },
  );
  it("takes only the correlation fields a body names; a body that is not an object adds nothing", () => {
    expect(messageCorrelation({ team_id: "t", run_id: "r", key: "gate:g", text: "x", task_id: 3 })).toEqual({
      team_id: "t",
      run_id: "r",
    });
    for (const b of [null, undefined, "team_id", 42, []]) expect(messageCorrelation(b)).toEqual({});
  });
  it("keeps exactly the fields every body agrees on", () => {
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 6 }), (bodies) => {
        const shared = sharedCorrelation(bodies);
        for (const k of ["team_id", "run_id"] as const) {
          const agreed = bodies.every((b) => b[k] !== undefined && b[k] === bodies[0]?.[k]);
          expect(shared[k]).toBe(agreed ? bodies[0]?.[k] : undefined);
        }
        expect(Object.keys(shared).every((k) => k === "team_id" || k === "run_id")).toBe(true);
      }),
    );
  });
});
