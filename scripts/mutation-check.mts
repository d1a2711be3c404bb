// Mutation check of three pure cores (issue 25): operator and boolean mutants of the evaluator, the run reducer's steps
// and the memory guard, each run against every test file of the core's feature folder (--bail=1); a mutant is killed
// when that run fails. `npx tsx scripts/mutation-check.mts evaluator|reducer|guard [mutants per core, default 6]`: the
// mutants are spread evenly over the core's files, so the same count picks the same mutants on another commit with the
// same source (how the figures before and after moving tests to Node were compared). Not part of npm test: each
// mutant is a vitest run (~1 min on a loaded 2-core machine).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import ts from "typescript";

type Mutant = { file: string; start: number; end: number; from: string; to: string; line: number };
const SWAP: Record<string, string> = {
  "===": "!==",
  "!==": "===",
  "==": "!=",
  "!=": "==",
  "<": ">=",
  ">=": "<",
  ">": "<=",
  "<=": ">",
  "&&": "||",
  "||": "&&",
  "+": "-",
  "-": "+",
  "??": "&&",
};

function mutants(file: string): Mutant[] {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Mutant[] = [];
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      const from = op.getText(sf);
      const to = SWAP[from];
      if (to) out.push({ file, start: op.getStart(sf), end: op.getEnd(), from, to, line: line(op.getStart(sf)) });
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) {
      const from = node.getText(sf);
      out.push({
        file,
        start: node.getStart(sf),
        end: node.getEnd(),
        from,
        to: from === "true" ? "false" : "true",
        line: line(node.getStart(sf)),
      });
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      const s = node.getStart(sf);
      out.push({ file, start: s, end: s + 1, from: "!", to: "", line: line(s) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function testsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testsUnder(p));
    else if (p.endsWith(".test.ts") && !p.endsWith(".node.test.ts")) out.push(p);
  }
  return out;
}

const [core, perCore] = [process.argv[2] as string, Number(process.argv[3] ?? 6)];
const CORES: Record<string, { files: string[]; tests: string }> = {
  evaluator: { files: ["src/features/policy/evaluator.ts"], tests: "src/features/policy" },
  reducer: {
    files: [
      "src/features/runs/reducer.ts",
      "src/features/runs/orders.ts",
      "src/features/runs/attempts.ts",
      "src/features/runs/lifecycle.ts",
      "src/features/runs/gate-ops.ts",
    ],
    tests: "src/features/runs",
  },
  guard: {
    files: ["src/features/memory/guard/guard.ts", "src/features/memory/guard/detectors.ts"],
    tests: "src/features/memory",
  },
};
const spec = CORES[core];
if (!spec) throw new Error(`core: ${Object.keys(CORES).join(" | ")}`);
const all = spec.files.flatMap(mutants);
const stride = Math.max(1, all.length / perCore);
const chosen = Array.from({ length: Math.min(perCore, all.length) }, (_, i) => all[Math.floor(i * stride)] as Mutant);
const tests = testsUnder(spec.tests);
let killed = 0;
for (const m of chosen) {
  const original = readFileSync(m.file, "utf8");
  // a stopped check must not leave a mutant in the tree
  const restore = () => {
    writeFileSync(m.file, original);
    process.exit(130);
  };
  process.once("SIGINT", restore).once("SIGTERM", restore);
  writeFileSync(m.file, original.slice(0, m.start) + m.to + original.slice(m.end));
  const started = Date.now();
  try {
    const r = spawnSync("npx", ["--no-install", "vitest", "run", "--bail=1", "--reporter=dot", ...tests], {
      encoding: "utf8",
    });
    const dead = r.status !== 0;
    if (dead) killed++;
    // which test killed it: a kill by a test that has nothing to do with the mutant is worth a second look
    const by = dead
      ? (stripVTControlCharacters(`${r.stdout}${r.stderr}`)
          .match(/^ *(?:FAIL|×) .*$/m)?.[0]
          .trim() ?? "")
      : "";
    console.log(
      `${dead ? "killed  " : "SURVIVED"} ${m.file}:${m.line} ${m.from} → ${m.to || "(removed)"} (${((Date.now() - started) / 1000).toFixed(0)} s)${by ? `, by ${by.slice(0, 160)}` : ""}`,
    );
  } finally {
    writeFileSync(m.file, original);
    process.off("SIGINT", restore).off("SIGTERM", restore);
  }
}
console.log(
  `${core}: ${killed}/${chosen.length} killed (of ${all.length} mutants; ${tests.length} test files under ${spec.tests})`,
);
