// Function-length check: every function, method, accessor and arrow in production code (src/, durable-objects/, cli/, not
// tests) is at most MAX_LINES lines long, counted from its first to its last line with TypeScript's own parser.
// Prints each offender (path:line name lines) and exits 1 when there is one. Usage: node scripts/function-length.mjs
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

export const MAX_LINES = 60;
const ROOT = resolve(import.meta.dirname, "..");
const FOLDERS = ["src", "durable-objects", "cli"];

/** Every production .ts/.tsx file under a folder (tests and declaration files are not production code). */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.(test|contract)\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A readable name for a function node: its own, its variable's or property's, else "(anonymous)". */
function nameOf(node, file) {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText(file);
  return "(anonymous)";
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** The functions of one source text longer than `max` lines: { name, line, lines }. */
export function longFunctions(text, fileName = "file.ts", max = MAX_LINES) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const out = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) out.push({ name: nameOf(node, file), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const offenders = FOLDERS.flatMap((folder) => sources(join(ROOT, folder))).flatMap((path) =>
    longFunctions(readFileSync(path, "utf8"), path).map((f) => ({ ...f, path: relative(ROOT, path) })),
  );
  for (const f of offenders.sort((a, b) => b.lines - a.lines))
    console.log(`${f.path}:${f.line} ${f.name} ${f.lines} lines`);
  if (offenders.length > 0) {
    console.log(`${offenders.length} function(s) over ${MAX_LINES} lines`);
    process.exit(1);
  }
  console.log(`no function over ${MAX_LINES} lines`);
}
