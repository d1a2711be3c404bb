// `npm test` check: no import cycle between feature folders (src/features/<name>/), counting every production import
// (type-only ones too: they couple the folders all the same). A folder's pure entry `domain.ts` and the files it
// reaches inside the folder are a layer of their own, "<name>/domain" (below every service layer: dependency-cruiser's
// domain-below-services rule), so "runs uses gates' pure machine while gates' routes drive runs" is one-way. A
// folder's drizzle tables `store/tables.ts` are one too, "<name>/tables" (definitions only: tables-are-definitions).
// Prints each cycle's layers and one import per edge.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const FEATURES = join(ROOT, "src/features");

/** Every production .ts/.tsx file under a folder (tests are not production code). */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The feature folder a file sits in, or undefined for files outside one (src/features/index.ts, feature.ts). */
const featureOf = (file) => relative(FEATURES, file).split("/").slice(0, -1)[0];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']/g;

/** Relative imports of a file, resolved to absolute paths without extension. */
const importsOf = (file) =>
  [...readFileSync(file, "utf8").matchAll(IMPORT)]
    .map(([, spec]) => spec)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => ({ spec, target: resolve(dirname(file), spec).replace(/\.tsx?$/, "") }));

/** The files of a folder's pure layer: its domain.ts and every file of the folder it reaches. */
function domainFiles(folder) {
  const entry = join(FEATURES, folder, "domain.ts");
  if (!statSync(entry, { throwIfNoEntry: false })) return new Set();
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length) {
    for (const { target } of importsOf(todo.pop())) {
      for (const file of [`${target}.ts`, `${target}.tsx`, join(target, "index.ts")]) {
        if (
          !seen.has(file) &&
          file.startsWith(join(FEATURES, folder, "/")) &&
          statSync(file, { throwIfNoEntry: false })
        ) {
          seen.add(file);
          todo.push(file);
        }
      }
    }
  }
  return seen;
}

/** layer → layer → one example import "file → specifier" */
export function featureGraph() {
  const edges = new Map();
  const pure = new Map();
  const layerOf = (file) => {
    const folder = featureOf(file);
    if (!folder) return undefined;
    if (!pure.has(folder)) pure.set(folder, domainFiles(folder));
    if (relative(join(FEATURES, folder), file) === "store/tables.ts") return `${folder}/tables`;
    return pure.get(folder).has(file) ? `${folder}/domain` : folder;
  };
  for (const file of sources(FEATURES)) {
    const from = layerOf(file);
    if (!from) continue;
    for (const { spec, target } of importsOf(file)) {
      if (!target.startsWith(`${FEATURES}/`)) continue;
      const [top, ...rest] = relative(FEATURES, target).split("/");
      if (!top || !statSync(join(FEATURES, top), { throwIfNoEntry: false })?.isDirectory()) continue;
      if (top === featureOf(file)) continue; // inside one folder: its layers are checked by dependency-cruiser
      const inner = rest.join("/");
      const to = inner === "domain" ? `${top}/domain` : inner === "store/tables" ? `${top}/tables` : top;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(ROOT, file)} → ${spec}`);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components with more than one folder: each is a cycle (or several). */
export function cycles(edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** `--strict`: a folder and its pure layer as one node (for figures: the folder-level knot domain.ts files break). */
const merged = (edges) => {
  const out = new Map();
  const folder = (layer) => layer.replace(/\/(domain|tables)$/, "");
  for (const [from, tos] of edges)
    for (const [to, example] of tos) {
      if (folder(from) === folder(to)) continue;
      if (!out.has(folder(from))) out.set(folder(from), new Map());
      out.get(folder(from)).set(folder(to), example);
    }
  return out;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = process.argv.includes("--strict") ? merged(featureGraph()) : featureGraph();
  const found = cycles(edges);
  if (found.length === 0) {
    console.log("no cycles between feature folders");
    process.exit(0);
  }
  for (const scc of found) {
    console.log(`cycle between feature folders: ${scc.join(", ")}`);
    for (const from of scc)
      for (const [to, example] of edges.get(from) ?? [])
        if (scc.includes(to)) console.log(`  ${from} → ${to}: ${example}`);
  }
  process.exit(1);
}
