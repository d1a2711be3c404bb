// In-process evaluator bench: decide() on the uniform stream over the whole input space and on well-formed input (decisionInput() objects), and from as-parsed shapes, each against a Map.get ceiling.
import { FAILURE_CLASSES, MEMRL_MODES } from "../contracts/memrl-policy";
import { DEFAULT_PROFILE } from "../src/features/policy/default-profile";
import { compileProfile, type DecisionInput, decide, decisionInput } from "../src/features/policy/evaluator";
import { cedarRows } from "./cedar";
import type { Row } from "./harness";

/** Every combination of mode × class (known, unknown, missing) × attempt × max_attempts × legacy action. */
export function wholeInputSpace(): DecisionInput[] {
  const modes = [...MEMRL_MODES, undefined];
  const classes = [...FAILURE_CLASSES, "gremlin", "VIBE_FAIL", undefined];
  const attempts = [undefined, 0, 1, 2, 3, 4, 7];
  const maxes = [undefined, 0, 1, 3, 5];
  const legacies = [undefined, "retry", "escalate"] as const;
  const inputs: DecisionInput[] = [];
  for (const memrl_mode of modes)
    for (const failure_class of classes)
      for (const attempt of attempts)
        for (const max_attempts of maxes)
          for (const legacy_action of legacies) {
            // Absent fields are absent keys, as in parsed JSON, so input shapes vary as they do in production.
            const input: DecisionInput = {};
            if (memrl_mode !== undefined) input.memrl_mode = memrl_mode;
            if (failure_class !== undefined) input.failure_class = failure_class;
            if (attempt !== undefined) input.attempt = attempt;
            if (max_attempts !== undefined) input.max_attempts = max_attempts;
            if (legacy_action !== undefined) input.legacy_action = legacy_action;
            inputs.push(input);
          }
  return inputs;
}

/** Mode × known class × attempt 1..4 of 3: the friendly stream. */
export function wellFormedInputs(): DecisionInput[] {
  const inputs: DecisionInput[] = [];
  for (const memrl_mode of MEMRL_MODES)
    for (const failure_class of FAILURE_CLASSES)
      for (let attempt = 1; attempt <= 4; attempt++)
        inputs.push({ memrl_mode, failure_class, attempt, max_attempts: 3 });
  return inputs;
}

/** A fixed pseudo-random stream of indices into n items, drawn uniformly (mulberry32, seeded). */
function uniformStream(n: number, length: number, seed = 0x5eed): Uint32Array {
  const out = new Uint32Array(length);
  let a = seed;
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  }
  return out;
}

function opsPerSecond(from: number, iterations: number, fn: (i: number) => unknown): number {
  let sink = 0;
  const start = performance.now();
  for (let i = from; i < from + iterations; i++) sink ^= fn(i) ? 1 : 0;
  const seconds = (performance.now() - start) / 1000;
  if (sink === 42) console.log(""); // keep the results alive
  return iterations / seconds;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;

/**
 * a and b alternated in short slices (a few ms each) over the same stream positions, so a burst of load from
 * another process on a shared machine hits one pair of slices, not one whole side: the ratio is the median of the
 * per-pair ratios, the rates the medians of each side.
 */
function paired(slices: number, iterations: number, a: (i: number) => unknown, b: (i: number) => unknown) {
  for (let i = 0; i < 300_000; i++) {
    a(i); // warm-up of both before any slice is timed
    b(i);
  }
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let s = 0; s < slices; s++) {
    const from = s * iterations;
    // which side goes first alternates, so neither always runs on the caches the other warmed
    let x: number;
    let y: number;
    if (s % 2 === 0) {
      x = opsPerSecond(from, iterations, a);
      y = opsPerSecond(from, iterations, b);
    } else {
      y = opsPerSecond(from, iterations, b);
      x = opsPerSecond(from, iterations, a);
    }
    as.push(x);
    bs.push(y);
    ratios.push(y / x);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

/**
 * One row: decide() against Map.get of a precomputed key per input, both over the same uniform stream; `normalise`
 * passes each input through decisionInput() first. Each side is its own closure calling decide() directly, so the
 * engine can inline it as it inlines Map.get (no shared higher-order call in between).
 */
function againstMap(label: string, inputs: DecisionInput[], normalise: boolean, judged: boolean): Row {
  const compiled = compileProfile(DEFAULT_PROFILE, 0);
  const context = { ceiling: "enforce" as const };
  const keys = inputs.map((i) => JSON.stringify(i));
  const ceilingMap = new Map(keys.map((k, i) => [k, inputs[i]]));
  const stream = uniformStream(inputs.length, 1 << 16);
  const mask = stream.length - 1;
  const {
    a: ceilingOps,
    b: decideOps,
    ratio,
  } = paired(
    41,
    250_000,
    (i) => ceilingMap.get(keys[stream[i & mask] as number] as string),
    normalise
      ? (i) => decide(compiled, decisionInput(inputs[stream[i & mask] as number] as DecisionInput), context)
      : (i) => decide(compiled, inputs[stream[i & mask] as number] as DecisionInput, context),
  );
  return {
    section: "policy",
    metric: `${label} (${inputs.length} combinations)`,
    value: decideOps,
    unit: "ops/s",
    ceiling: ceilingOps,
    ratio,
    ...(judged
      ? { target: "≥ 0.50× Map.get of a precomputed key", pass: ratio >= 0.5 }
      : { target: "reported (÷ Map.get of a precomputed key)" }),
  };
}

/**
 * decide() is judged on the inputs its callers hand it: built by decisionInput() (one object shape, every field
 * present, undefined when absent). The as-parsed row times decisionInput() + decide() on the objects as JSON.parse
 * leaves them (absent fields absent: 32 shapes over the input space), i.e. the cost including the normalisation.
 */
export function evaluatorRows(): Row[] {
  const asParsed = wholeInputSpace();
  const normalised = asParsed.map(decisionInput);
  const uniform = againstMap("decide() in-process, uniform, whole input space", normalised, false, true);
  return [
    uniform,
    ...cedarRows(normalised, uniformStream(normalised.length, 1 << 16), uniform.value),
    againstMap("decide() in-process, well-formed input", wellFormedInputs().map(decisionInput), false, true),
    // last: it hands decide() 32 object shapes, after which its reads are megamorphic for any later row as well
    againstMap("decisionInput() + decide(), uniform, as parsed (32 shapes)", asParsed, true, false),
  ];
}
