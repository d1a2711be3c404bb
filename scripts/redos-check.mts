// `npm test`'s ReDoS check: every regular expression of the Worker's code (src/, durable-objects/, contracts/) must match
// in linear time, since the guard and the routes run them on request text. recheck finds each pattern's worst case;
// a super-linear verdict is confirmed by timing its attack string in V8 itself (the engine the Worker runs) at three sizes.
import { existsSync, globSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { check } from "recheck";
import ts from "typescript";

export type Pattern = { where: string; source: string; flags: string };
export type Verdict = { pattern: Pattern; ok: boolean; why: string };

const ROOTS = ["src", "durable-objects", "contracts"];
/**
 * The verdicts of the patterns that passed, committed beside this script: a fresh clone checks only the patterns this
 * file does not list (recheck takes ~2.5 min for all ~300 on a loaded 2-core machine, ~0.5 s per pattern, up to 16 s for
 * one). Keyed by the pattern's source and flags, and by recheck's version (a new version re-checks everything); `--all`
 * ignores it. A pattern that leaves the code leaves the file.
 */
const VERDICTS_FILE = "scripts/redos-verdicts.json";
/**
 * Committed verdicts re-checked by recheck per run (a different few each day): recheck must still say what the file
 * says, so an entry written by hand instead of by this check is found soon.
 */
const SAMPLE = 2;
const log = (line: string) => process.stdout.write(`${line}\n`);
/**
 * Growth of the match time when the attack string grows 4×: linear ≈ 4, quadratic ≈ 16. Super-linear only when two
 * successive steps (n → 4n → 16n) both exceed this, so one noisy timing on a busy machine decides nothing.
 */
const SUPERLINEAR_STEP = 8;
/** timings of a recheck "vulnerable" verdict before it is called unconfirmed */
const CONFIRM_TRIES = 3;

/** Regex literals of a source text, and whether it also builds regexes at run time (`new RegExp(…)`). */
export function literalsOf(file: string, text: string): { patterns: Pattern[]; dynamic: boolean } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const patterns: Pattern[] = [];
  let dynamic = false;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(sf);
      const end = literal.lastIndexOf("/");
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      patterns.push({ where: `${file}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1) });
    }
    if (ts.isNewExpression(node) && node.expression.getText(sf) === "RegExp") dynamic = true;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { patterns, dynamic };
}

/** Every pattern of the production code: literals, and the `DYNAMIC_PATTERNS` a file that builds regexes must export. */
export async function inventory(root = process.cwd()): Promise<{ patterns: Pattern[]; problems: string[] }> {
  const files = ROOTS.flatMap((r) => globSync(`${r}/**/*.ts`, { cwd: root })).filter(
    (f) => !f.includes(".test.") && !f.endsWith(".d.ts") && !f.includes(".contract."),
  );
  const patterns: Pattern[] = [];
  const problems: string[] = [];
  for (const file of files.sort()) {
    const found = literalsOf(file, readFileSync(resolve(root, file), "utf8"));
    patterns.push(...found.patterns);
    if (!found.dynamic) continue;
    const mod = (await import(pathToFileURL(resolve(root, file)).href)) as { DYNAMIC_PATTERNS?: RegExp[] };
    if (!Array.isArray(mod.DYNAMIC_PATTERNS)) {
      problems.push(`${file}: builds regexes with new RegExp() but exports no DYNAMIC_PATTERNS list of them`);
      continue;
    }
    for (const re of mod.DYNAMIC_PATTERNS)
      patterns.push({ where: `${file} (dynamic)`, source: re.source, flags: re.flags });
  }
  return { patterns, problems };
}

/** A match this long is timed three times instead of five: the scheduler's noise is small beside it, the cost not. */
const LONG_MATCH_MS = 50;

/**
 * Median of five runs of `re` over `text`, in milliseconds; of three when the first three each took ≥ LONG_MATCH_MS
 * (a quadratic pattern's 16n step takes seconds a run: five of them were half the check's time).
 */
function timeMatch(re: RegExp, text: string): number {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const started = performance.now();
    re.lastIndex = 0;
    re.test(text);
    times.push(performance.now() - started);
    if (k === 2 && times.every((t) => t >= LONG_MATCH_MS)) break;
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
}

type Attack = { pumps: { prefix: string; pump: string }[]; suffix: string };

/**
 * Whether V8 itself slows down super-linearly on recheck's attack: the pumps repeated n, 4n and 16n times, n grown
 * until one match takes ≥ 5 ms (at most a 16 KiB string), so fixed costs do not drown the growth.
 */
export function superLinearInV8(p: Pattern, attack: Attack): { superLinear: boolean; growth: number[] } {
  const re = new RegExp(p.source, p.flags.includes("g") ? p.flags : `${p.flags}g`);
  const build = (n: number) => attack.pumps.map((x) => x.prefix + x.pump.repeat(n)).join("") + attack.suffix;
  const pumpLength = Math.max(1, ...attack.pumps.map((x) => x.pump.length));
  let n = 64;
  while (timeMatch(re, build(n)) < 5 && n * pumpLength < 16_384) n *= 2;
  const t1 = Math.max(timeMatch(re, build(n)), 0.05);
  const t4 = timeMatch(re, build(n * 4));
  const first = t4 / t1;
  // linear at the first step, or so slow at 4n that 16n would take long: the first step decides
  if (first <= SUPERLINEAR_STEP || t4 > 500) return { superLinear: first > SUPERLINEAR_STEP, growth: [first] };
  const second = timeMatch(re, build(n * 16)) / Math.max(t4, 0.05);
  return { superLinear: second > SUPERLINEAR_STEP, growth: [first, second] };
}

/**
 * recheck's own verdict, without the V8 timing (deterministic: a fixed seed): what a committed verdict's `why` starts
 * with, so a sampled re-check cannot fail on a noisy timing.
 */
async function recheckSummary(p: Pattern): Promise<string> {
  const result = await check(p.source, p.flags.replace(/[gyd]/g, ""), { randomSeed: 42, timeout: 60_000 });
  if (result.status === "safe") return `safe (${result.checker})`;
  if (result.status === "vulnerable") return result.complexity.summary;
  return `undecided (${result.error.kind})`;
}

/** recheck's verdict on one pattern, confirmed in V8 when recheck calls it vulnerable. */
export async function checkPattern(p: Pattern): Promise<Verdict> {
  const flags = p.flags.replace(/[gyd]/g, "");
  const result = await check(p.source, flags, { randomSeed: 42, timeout: 60_000 });
  if (result.status === "safe") return { pattern: p, ok: true, why: `safe (${result.checker})` };
  if (result.status === "vulnerable") {
    // a busy machine can flatten one timing of a real quadratic; a linear pattern does not pass two >8× steps by
    // noise three times, so up to three tries confirm without letting recheck's false positives through
    let { superLinear, growth } = superLinearInV8(p, result.attack as Attack);
    for (let retry = 0; retry < CONFIRM_TRIES - 1 && !superLinear; retry++)
      ({ superLinear, growth } = superLinearInV8(p, result.attack as Attack));
    const summary = `${result.complexity.summary}; V8 time ×${growth.map((g) => g.toFixed(1)).join(", ×")} per 4× input`;
    return { pattern: p, ok: !superLinear, why: superLinear ? summary : `not confirmed in V8 (${summary})` };
  }
  return { pattern: p, ok: false, why: `recheck could not decide (${result.error.kind})` };
}

/** A passing verdict as committed in VERDICTS_FILE: the pattern itself (so a review sees each new one) and recheck's why. */
export type Passed = { source: string; flags: string; why: string };
export type VerdictFile = { recheck: string; passed: Passed[] };

const idOf = (p: { source: string; flags: string }) => `${p.flags}\n${p.source}`;

/**
 * What a run must check: the patterns the committed verdicts do not cover (all of them when recheck's version changed),
 * and a sample of `SAMPLE` covered ones, rotating with `day`, re-checked so a wrong verdict in the file does not live long.
 */
export function planChecks(
  patterns: Pattern[],
  file: VerdictFile | undefined,
  version: string,
  day: number,
): { fresh: Pattern[]; sample: Pattern[]; known: Map<string, Passed> } {
  const known = new Map<string, Passed>();
  if (file?.recheck === version) for (const v of file.passed) known.set(idOf(v), v);
  const unique = [...new Map(patterns.map((p) => [idOf(p), p])).values()];
  const fresh = unique.filter((p) => !known.has(idOf(p)));
  const covered = unique.filter((p) => known.has(idOf(p))).sort((a, b) => idOf(a).localeCompare(idOf(b)));
  const sample: Pattern[] = [];
  for (let k = 0; k < Math.min(SAMPLE, covered.length); k++)
    sample.push(covered[(day * SAMPLE + k) % covered.length] as Pattern);
  return { fresh, sample, known };
}

/** The verdict file for the current patterns: only those that passed, sorted, so it changes only when a pattern does. */
export function nextVerdicts(patterns: Pattern[], passed: Map<string, Passed>, version: string): VerdictFile {
  const ids = new Set(patterns.map(idOf));
  const kept = [...passed.entries()].filter(([id]) => ids.has(id)).sort(([a], [b]) => a.localeCompare(b));
  return { recheck: version, passed: kept.map(([, v]) => v) };
}

/** The file as written: JSON.stringify's indentation, which is also biome's format for it. */
const serialize = (f: VerdictFile) => `${JSON.stringify(f, null, 2)}\n`;

async function main() {
  const all = process.argv.includes("--all");
  const { patterns, problems } = await inventory();
  const version = JSON.parse(readFileSync("node_modules/recheck/package.json", "utf8")).version as string;
  const file =
    existsSync(VERDICTS_FILE) && !all ? (JSON.parse(readFileSync(VERDICTS_FILE, "utf8")) as VerdictFile) : undefined;
  const { fresh, sample, known } = planChecks(patterns, file, version, Math.floor(Date.now() / 86_400_000));
  const failures = [...problems];
  for (const p of sample) {
    const why = known.get(idOf(p))?.why ?? "";
    const now = await recheckSummary(p);
    if (why === now || why.startsWith(`not confirmed in V8 (${now};`)) continue;
    // recheck's fuzz checker gives up sooner on a busy machine and may then call a safe pattern vulnerable (seen: a
    // committed "safe (fuzz)" re-checked as "2nd degree polynomial (fuzz)" under load 28): the pattern fails only when
    // V8 confirms it, the same standard as a new pattern's
    const confirmed = await checkPattern(p);
    if (!confirmed.ok)
      failures.push(`${p.where}: /${p.source}/${p.flags} — committed "${why}", recheck now says "${confirmed.why}"`);
  }
  for (const p of fresh) {
    const verdict = await checkPattern(p);
    if (verdict.ok) known.set(idOf(p), { source: p.source, flags: p.flags, why: verdict.why });
    else {
      known.delete(idOf(p));
      failures.push(`${p.where}: /${p.source}/${p.flags} — ${verdict.why}`);
    }
  }
  const text = serialize(nextVerdicts(patterns, known, version));
  const changed = !existsSync(VERDICTS_FILE) || readFileSync(VERDICTS_FILE, "utf8") !== text;
  if (changed) writeFileSync(VERDICTS_FILE, text);
  log(
    `${patterns.length} patterns: ${fresh.length} new checked, ${sample.length} committed verdicts re-checked` +
      (changed ? `; ${VERDICTS_FILE} updated (commit it)` : ""),
  );
  if (failures.length > 0) {
    log(`super-linear or undecided:\n${failures.join("\n")}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
