// Reports production files over 450 lines and functions over 60 lines under src/ and durable-objects/ (the project's
// limits), largest first; `--check` exits 1 when any remain. Functions are found with the TypeScript parser, so a
// closure-module (a factory returning its methods) counts as the one long function it is.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const FILE_LIMIT = 450;
const FUNCTION_LIMIT = 60;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

type Offender = { where: string; lines: number };

/** Every function-like node longer than the limit, named by its declaration or the variable/property it is bound to. */
function longFunctions(file: string, text: string): Offender[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Offender[] = [];
  const nameOf = (node: ts.Node): string => {
    const named = (node as { name?: ts.Node }).name;
    if (named) return named.getText(source);
    const parent = node.parent;
    if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
      return parent.name.getText(source);
    return "(anonymous)";
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > FUNCTION_LIMIT) out.push({ where: `${relative(ROOT, file)}:${start + 1} ${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const files: Offender[] = [];
const functions: Offender[] = [];
for (const file of ["src", "durable-objects"].flatMap((d) => sources(join(ROOT, d)))) {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > FILE_LIMIT) files.push({ where: relative(ROOT, file), lines });
  functions.push(...longFunctions(file, text));
}
const byLines = (a: Offender, b: Offender) => b.lines - a.lines;
console.log(`files over ${FILE_LIMIT} lines: ${files.length}`);
for (const f of files.sort(byLines)) console.log(`  ${f.lines}  ${f.where}`);
console.log(`functions over ${FUNCTION_LIMIT} lines: ${functions.length}`);
for (const f of functions.sort(byLines)) console.log(`  ${f.lines}  ${f.where}`);
if (process.argv.includes("--check") && files.length + functions.length > 0) process.exit(1);
