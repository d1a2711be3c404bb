// The route-schemas-to-tool-arguments core: $refs inlined, parts merged, arguments split by part and parsed by the route's schemas.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inlineRefs, parseToolArgs, toolInputSchema } from "./input-schema";

const Params = z.object({ run_id: z.string().min(1) });
const Body = z
  .strictObject({ op_id: z.string().min(1), note: z.string().max(5).optional() })
  .refine((b) => b.op_id !== "forbidden", { message: "op_id may not be forbidden", path: ["op_id"] })
  .meta({ id: "TestBody" });

describe("inlineRefs", () => {
  it("replaces each $defs reference by its definition and drops $defs and $schema", () => {
    const js = inlineRefs({
      $schema: "x",
      $ref: "#/$defs/A",
      $defs: { A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } }, B: { type: "string" } },
    });
    expect(js).toEqual({ type: "object", properties: { b: { type: "string" } } });
  });

  it("keeps a self-reference instead of recursing forever", () => {
    const js = inlineRefs({ $ref: "#/$defs/T", $defs: { T: { type: "array", items: { $ref: "#/$defs/T" } } } });
    expect(js).toEqual({ type: "array", items: { $ref: "#/$defs/T" } });
  });

  it("leaves a schema without references as it was (minus $schema)", () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tree, { maxKeys: 4 }), (schema) => {
        expect(inlineRefs(schema)).toEqual(schema);
      }),
    );
  });
});

describe("toolInputSchema", () => {
  it("puts the parts' properties side by side with the union of their required names, nothing else allowed", () => {
    const js = toolInputSchema({ params: Params, body: Body });
    expect(js).toMatchObject({ type: "object", required: ["run_id", "op_id"], additionalProperties: false });
    expect(Object.keys(js.properties as object)).toEqual(["run_id", "op_id", "note"]);
    expect(JSON.stringify(js)).not.toContain("$ref");
  });

  it("refuses a tool whose parts name the same argument twice", () => {
    expect(() => toolInputSchema({ params: Params, body: z.object({ run_id: z.string() }) })).toThrow(/run_id/);
  });
});

describe("parseToolArgs", () => {
  const parts = { params: Params, body: Body };

  it("splits the arguments by part and parses each with its own schema", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }).filter((s) => s !== "forbidden"),
        (run_id, op_id) => {
          const r = parseToolArgs(parts, { run_id, op_id });
          expect(r).toEqual({
            ok: true,
            value: { params: { run_id }, query: undefined, body: { op_id }, extra: undefined },
          });
        },
      ),
    );
  });

  it("names every failing path, the route's refinements and unknown arguments included", () => {
    const r = parseToolArgs(parts, { run_id: "", op_id: "forbidden", note: "far too long", extra_arg: 1 });
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["run_id", "note", "extra_arg"]));
    const refined = parseToolArgs(parts, { run_id: "r", op_id: "forbidden" });
    expect(refined.ok ? [] : refined.issues).toEqual([{ path: "op_id", message: "op_id may not be forbidden" }]);
  });

  it("refuses any argument of a tool without a body", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,8}$/).filter((k) => k !== "run_id"),
        (k) => {
          const r = parseToolArgs({ params: Params }, { run_id: "r", [k]: 1 });
          expect(r.ok ? [] : r.issues.map((i) => i.path)).toEqual([k]);
        },
      ),
    );
  });
});
