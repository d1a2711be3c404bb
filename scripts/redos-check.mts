// `npm test`'s ReDoS check: every regular expression of the Worker's code (src/, durable-objects/, contracts/) must match
// in linear time, since the guard and the routes run them on request text. recheck finds each pattern's worst case;
// a super-linear verdict is confirmed by timing its attack string in V8 itself (the engine the Worker runs) at three sizes.
import { createHash } from "node:crypto";
import { existsSync, globSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { check } from "recheck";
import ts from "typescript";

export type Pattern = { where: string; source: string; flags: string };
export type Verdict = { pattern: Pattern; ok: boolean; why: string };

const ROOTS = ["src", "durable-objects", "contracts"];
const CACHE_FILE = "node_modules/.cache/warden-redos.json";
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

/** Median of five runs of `re` over `text`, in milliseconds. */
function timeMatch(re: RegExp, text: string): number {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const started = performance.now();
    re.lastIndex = 0;
    re.test(text);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2] as number;
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

const keyOf = (p: Pattern, version: string) =>
  createHash("sha256").update(`${version}\n${p.flags}\n${p.source}`).digest("hex").slice(0, 32);

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

async function main() {
  const { patterns, problems } = await inventory();
  const version = JSON.parse(readFileSync("node_modules/recheck/package.json", "utf8")).version as string;
  const cache: string[] = existsSync(CACHE_FILE) ? JSON.parse(readFileSync(CACHE_FILE, "utf8")) : [];
  const known = new Set(cache);
  const failures = [...problems];
  const passed: string[] = [];
  let checked = 0;
  for (const p of patterns) {
    const key = keyOf(p, version);
    if (known.has(key)) {
      passed.push(key);
      continue;
    }
    checked++;
    const verdict = await checkPattern(p);
    if (verdict.ok) passed.push(key);
    else failures.push(`${p.where}: /${p.source}/${p.flags} — ${verdict.why}`);
  }
  mkdirSync("node_modules/.cache", { recursive: true });
  writeFileSync(CACHE_FILE, JSON.stringify([...new Set(passed)]));
  console.log(`${patterns.length} patterns, ${checked} checked now (the rest unchanged since a passing check)`);
  if (failures.length > 0) {
    console.log(`super-linear or undecided:\n${failures.join("\n")}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
