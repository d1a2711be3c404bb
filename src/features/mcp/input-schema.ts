// A tool's arguments as one JSON object: the route's path/query/body zod schemas merged into one MCP inputSchema.
import { z } from "zod";
import type { Issue } from "../../errors";
import { oncePer } from "../../lib/once-per";

/** The zod schemas of one route's request: its path params, query and JSON body (each an object schema). */
export type RouteParts = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType; extra?: z.ZodType };
const PART_NAMES = ["params", "query", "body", "extra"] as const;

type JsonSchema = { [k: string]: unknown };

/**
 * Replaces every `$ref: "#/$defs/X"` by the definition it names and drops `$defs`/`$schema`: MCP clients want a plain
 * object schema at the root (zod hoists schemas with an OpenAPI id into `$defs`). A self-referencing schema keeps its ref.
 */
export function inlineRefs(schema: JsonSchema): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const walk = (node: unknown, seen: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (node === null || typeof node !== "object") return node;
    const { $ref, ...rest } = node as JsonSchema;
    const name = typeof $ref === "string" && $ref.startsWith("#/$defs/") ? $ref.slice(8) : undefined;
    const out: JsonSchema = {};
    if (name !== undefined && defs[name] && !seen.has(name))
      Object.assign(out, walk(defs[name], new Set([...seen, name])) as JsonSchema);
    else if ($ref !== undefined) out.$ref = $ref;
    for (const [k, v] of Object.entries(rest)) if (k !== "$defs" && k !== "$schema") out[k] = walk(v, seen);
    return out;
  };
  return walk(schema, new Set()) as JsonSchema;
}

/** One part's JSON Schema (what a caller sends: `io: "input"`), refs inlined; computed once per schema. */
export const partJsonSchema = oncePer(
  (part: z.ZodType): JsonSchema => inlineRefs(z.toJSONSchema(part, { io: "input" })),
);

const NO_PART = z.object({});
const issuePath = (i: z.core.$ZodIssue) =>
  i.code === "unrecognized_keys" ? i.keys.join(", ") : i.path.map(String).join(".") || "(arguments)";

/**
 * The tool's inputSchema: the parts' properties side by side (a name in two parts is a bug in the tool table), the
 * union of their required names, and no other properties (every route body here is strict).
 */
export function toolInputSchema(parts: RouteParts): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const name of PART_NAMES) {
    const part = parts[name];
    if (!part) continue;
    const js = partJsonSchema(part);
    for (const [k, v] of Object.entries((js.properties ?? {}) as JsonSchema)) {
      if (k in properties) throw new Error(`tool argument ${k} appears in two parts of the route`);
      properties[k] = v;
    }
    required.push(...((js.required ?? []) as string[]));
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

export type ParsedArgs = { params: unknown; query: unknown; body: unknown; extra: unknown };

/**
 * Splits the arguments by part (by the part's property names; the body takes the rest) and parses each with the
 * route's own schema, so refinements run as on the route. Issues name the argument paths.
 */
export function parseToolArgs(
  parts: RouteParts,
  args: Record<string, unknown>,
): { ok: true; value: ParsedArgs } | { ok: false; issues: Issue[] } {
  const rest = { ...args };
  const take = (part: z.ZodType | undefined): Record<string, unknown> => {
    const names = Object.keys((partJsonSchema(part ?? NO_PART).properties ?? {}) as JsonSchema);
    const picked: Record<string, unknown> = {};
    for (const n of names) {
      if (!(n in rest)) continue;
      picked[n] = rest[n];
      delete rest[n];
    }
    return picked;
  };
  const raw = { params: take(parts.params), query: take(parts.query), extra: take(parts.extra), body: rest };
  const issues: Issue[] = [];
  const value: ParsedArgs = { params: undefined, query: undefined, body: undefined, extra: undefined };
  for (const name of PART_NAMES) {
    const part = parts[name];
    if (!part) {
      if (name === "body" && Object.keys(raw.body).length > 0)
        for (const k of Object.keys(raw.body)) issues.push({ path: k, message: "unknown argument" });
      continue;
    }
    const r = part.safeParse(raw[name]);
    if (r.success) value[name] = r.data;
    else issues.push(...r.error.issues.map((i) => ({ path: issuePath(i), message: i.message })));
  }
  return issues.length ? { ok: false, issues } : { ok: true, value };
}
