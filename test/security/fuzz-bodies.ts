// The fuzz's bodies, pure: fast-check JSON texts shaped by a route's own schema and hostile, and the check that tells a
// body the schema surely refuses (those go out in concurrent batches). Used by fuzz.ts in workerd and in Node.
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";

/** The fast-check seed of every route's bodies (plus the route's own `routeSeed`). */
export const SEED = 20_261_123;
const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

const nest = (n: number, inner: string) => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;

/** Every code point but the surrogates, as fast-check's own `unit: "binary"` builds them (same entries, same values). */
const codePoints = fc.mapToConstant(
  { num: 0xd800, build: (i) => String.fromCodePoint(i) },
  { num: 0x10ffff - 0xe000 + 1, build: (i) => String.fromCodePoint(0xe000 + i) },
);

/**
 * `unit: "binary"` with a cheap membership test: fc.string asks its unit whether each character of its built-in
 * "dangerous strings" (`__proto__`, `constructor`…) is one of its values, and the built-in unit answers through a map of
 * all 1,112,064 code points it builds first (1.5–4.5 s of CPU per process, more than generating all bodies). Values,
 * shrinks and that answer are the same, so the strings drawn are the same.
 */
class CodePoint extends fc.Arbitrary<string> {
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    return codePoints.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is string {
    if (typeof value !== "string" || value === "") return false;
    const cp = value.codePointAt(0) as number;
    return value.length === (cp > 0xffff ? 2 : 1) && (cp < 0xd800 || cp > 0xdfff);
  }
  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return codePoints.shrink(value, context);
  }
}

/** Any JSON value a hostile client sends: wrong types, huge numbers, long strings, unicode, prototype keys. */
const hostile: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 20 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: new CodePoint(), maxLength: 40 }),
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

/** FNV-1a of the route's method and path: a seed that stays put when other routes come and go. */
function routeSeed(route: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < route.length; k++) h = Math.imul(h ^ route.charCodeAt(k), 0x01000193) >>> 0;
  return h % 1_000_000;
}

/**
 * The first `n` bodies of a route, the same whatever `n`: seeded per route, not per position (adding a route elsewhere
 * does not change this route's bodies), so a smaller run sends a prefix of a larger one's bodies.
 */
export function routeBodies(method: string, path: string, schema: any, doc: any, n: number): string[] {
  return fc.sample(bodyText(schema, doc), { seed: SEED + routeSeed(`${method} ${path}`), numRuns: n });
}
