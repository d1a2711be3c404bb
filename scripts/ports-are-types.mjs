// `npm test` check: src/ports/ holds interfaces only, no runtime value (docs/architecture.md, "Ports"). Read with
// TypeScript's parser: an exported const, let, var, function, class or enum, a default export, an `export =` or a
// re-export that is not `export type` fails. Values belong to their owner: src/lib/ or a feature's domain.ts.
// Prints each offender (path:line what) and exits 1 when there is one. Usage: node scripts/ports-are-types.mjs
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const PORTS = join(ROOT, "src/ports");

const exported = (node) => ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
const declared = (node) => ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) ?? false;

/** What one statement exports at run time, or undefined when it exports only types (or nothing). */
function runtimeExport(node, file) {
  if (ts.isExportAssignment(node)) return node.isExportEquals ? "export =" : "export default";
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return undefined;
    const values =
      node.exportClause && ts.isNamedExports(node.exportClause)
        ? node.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.getText(file))
        : ["*"];
    return values.length > 0 ? `re-export ${values.join(", ")} (use \`export type\`)` : undefined;
  }
  if (!exported(node) || declared(node)) return undefined;
  if (ts.isVariableStatement(node))
    return `const ${node.declarationList.declarations.map((d) => d.name.getText(file)).join(", ")}`;
  if (ts.isFunctionDeclaration(node)) return `function ${node.name?.getText(file) ?? "default"}`;
  if (ts.isClassDeclaration(node)) return `class ${node.name?.getText(file) ?? "default"}`;
  if (ts.isEnumDeclaration(node)) return `enum ${node.name.getText(file)}`;
  return undefined;
}

/** The runtime values a port file exports: [{ line, what }]. */
export function portValues(text, path = "port.ts") {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return file.statements.flatMap((node) => {
    const what = runtimeExport(node, file);
    return what ? [{ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, what }] : [];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const offenders = readdirSync(PORTS)
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .flatMap((name) => {
      const path = join(PORTS, name);
      return portValues(readFileSync(path, "utf8"), path).map((v) => ({ ...v, path: relative(ROOT, path) }));
    });
  for (const v of offenders) console.log(`${v.path}:${v.line} exports a runtime value: ${v.what}`);
  if (offenders.length > 0) {
    console.log(`${offenders.length} runtime value(s) in src/ports/: move each to src/lib/ or its feature's domain.ts`);
    process.exit(1);
  }
  console.log("src/ports/ exports types only");
}
