// A small mutation check of three pure cores (the policy evaluator, the run reducer, the memory guard): each mutant flips
// one operator or literal in the core's source, runs the core's unit tests, and counts as killed when they fail.
// `node scripts/mutate.mjs [--max N] [--only evaluator|reducer|guard] [--json out.json]`; the source is restored after
// every mutant (and on Ctrl-C). Slow on purpose (one vitest run per mutant), so it is not part of `npm test`.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

export const CORES = {
  evaluator: {
    file: "src/features/policy/evaluator.ts",
    tests: [
      "src/features/policy/evaluator.unit.test.ts",
      "src/features/runs/taxonomy.unit.test.ts",
      "bench/cedar.unit.test.ts",
    ],
  },
  reducer: {
    file: "src/features/runs/reducer.ts",
    tests: [
      "src/features/runs/reducer.unit.test.ts",
      "src/features/runs/escalation.unit.test.ts",
      "src/features/runs/failure-hints.unit.test.ts",
    ],
  },
  guard: {
    file: "src/features/memory/guard/guard.ts",
    tests: [
      "src/features/memory/guard/guard.unit.test.ts",
      "src/features/memory/guard/detectors.unit.test.ts",
      "src/features/memory/guard/shortcuts.unit.test.ts",
    ],
  },
};

/** Operator and literal flips; binary operators only with the spaces the formatter puts around them (not generics). */
const FLIPS = [
  [" === ", " !== "],
  [" !== ", " === "],
  [" <= ", " < "],
  [" >= ", " > "],
  [" < ", " <= "],
  [" > ", " >= "],
  [" && ", " || "],
  [" || ", " && "],
  [" + 1", " - 1"],
  [" - 1", " + 1"],
  ["true", "false"],
  ["false", "true"],
];
const WORD = /^[a-z]+$/;
/** Lines with nothing to run: comments, imports, and type declarations (a flipped literal type changes no behaviour). */
const SKIPPED = /^(\/\/|\/?\*|import |(export )?(type|interface) |\| )/;

/** Every place a flip applies, skipping comments and imports: { line, column, from, to }. */
export function mutationSites(source) {
  const sites = [];
  source.split("\n").forEach((text, line) => {
    const code = text.trimStart();
    if (SKIPPED.test(code)) return;
    const end = text.includes(" // ") ? text.indexOf(" // ") : text.length;
    for (const [from, to] of FLIPS) {
      for (let at = text.indexOf(from); at !== -1 && at < end; at = text.indexOf(from, at + 1)) {
        if (WORD.test(from) && (/\w/.test(text[at - 1] ?? "") || /\w/.test(text[at + from.length] ?? ""))) continue;
        sites.push({ line, column: at, from, to });
      }
    }
  });
  return sites;
}

/** The source with one site flipped. */
export function applySite(source, site) {
  const lines = source.split("\n");
  const text = lines[site.line];
  lines[site.line] = text.slice(0, site.column) + site.to + text.slice(site.column + site.from.length);
  return lines.join("\n");
}

/** `max` sites spread evenly over all of them (all when there are fewer). */
export function spread(sites, max) {
  if (sites.length <= max) return sites;
  return Array.from({ length: max }, (_, i) => sites[Math.floor((i * sites.length) / max)]);
}

function testsPass(tests) {
  const run = spawnSync(
    "npx",
    ["--no-install", "vitest", "run", "--project", "unit", "--bail=1", "--reporter=dot", "--silent=true", ...tests],
    { stdio: "ignore", timeout: 240_000 },
  );
  return run.status === 0;
}

function main() {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const max = Number(arg("--max") ?? 15);
  const only = arg("--only");
  const results = {};
  for (const [name, core] of Object.entries(CORES)) {
    if (only && only !== name) continue;
    const original = readFileSync(core.file, "utf8");
    const restore = () => writeFileSync(core.file, original);
    process.once("SIGINT", () => {
      restore();
      process.exit(130);
    });
    if (!testsPass(core.tests)) throw new Error(`${name}: its tests fail before any mutation`);
    const all = mutationSites(original);
    const chosen = spread(all, max);
    const survived = [];
    try {
      for (const site of chosen) {
        writeFileSync(core.file, applySite(original, site));
        const killed = !testsPass(core.tests);
        if (!killed) survived.push(`${core.file}:${site.line + 1}:${site.column + 1} '${site.from}' → '${site.to}'`);
        process.stdout.write(killed ? "k" : "S");
      }
    } finally {
      restore();
    }
    results[name] = { sites: all.length, tried: chosen.length, killed: chosen.length - survived.length, survived };
    process.stdout.write(`\n${name}: ${chosen.length - survived.length} of ${chosen.length} mutants killed\n`);
    for (const s of survived) process.stdout.write(`  survived: ${s}\n`);
  }
  const out = arg("--json");
  if (out) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
