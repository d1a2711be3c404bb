// Layering rules of docs/architecture.md ("Dependency rules"), checked by `npm test` (`npm run deps`).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-is-pure",
      comment:
        "Inside a feature only the HTTP layer (routes.ts, routes/) and the public entry (index.ts) may import hono, " +
        "drizzle or cloudflare:*; use-cases and domain files reach storage and the runtime through ports.",
      severity: "error",
      from: {
        path: "^src/features/",
        pathNot: "^src/features/[^/]+/(routes\\.ts|routes/|index\\.ts$)",
      },
      to: {
        path: "^(hono|@hono/|drizzle-orm|cloudflare:)",
        dependencyTypes: ["npm", "core", "unknown", "undetermined"],
      },
    },
    {
      name: "domain-is-pure-npm",
      comment: "The same rule for resolved packages (node_modules paths).",
      severity: "error",
      from: {
        path: "^src/features/",
        pathNot: "^src/features/[^/]+/(routes\\.ts|routes/|index\\.ts$)",
      },
      to: { path: "node_modules/(hono|@hono/|drizzle-orm)/" },
    },
    {
      name: "feature-public-entry",
      comment:
        "A feature imports another feature only through its public entries: src/features/<name>/index.ts (routes, " +
        "services, wiring) or src/features/<name>/domain.ts (its pure part: types and functions, no I/O).",
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: {
        path: "^src/features/[^/]+/",
        pathNot: ["^src/features/$1/", "^src/features/[^/]+/(index|domain)\\.ts$"],
      },
    },
    {
      name: "domain-below-services",
      comment:
        "A feature's pure entry (domain.ts, and the files it re-exports) sits below every feature's services: it may " +
        "use another feature's domain.ts, never its index.ts. So the pure layer and the service layer cannot form a cycle.",
      severity: "error",
      from: { path: "^src/features/[^/]+/domain\\.ts$" },
      to: { path: "^src/features/[^/]+/index\\.ts$" },
    },
    {
      name: "no-feature-cycles",
      comment:
        "Features depend on each other in one direction: no module import cycle that crosses feature folders. The " +
        "folder-level check is scripts/feature-cycles.mjs (npm test), where a folder's domain.ts is a layer of its own.",
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: { circular: true, viaSomeNot: "^src/features/$1/" },
    },
    {
      name: "composition-root-on-top",
      comment:
        "src/infra.ts builds the shared adapters and src/deps.ts composes the features' services over them; only the " +
        "Worker entry, the app and the Durable Objects use them. Features declare what they need as their own Needs " +
        "type instead of importing Deps.",
      severity: "error",
      from: { path: "^src/(features|http|auth|ports|adapters|lib)/" },
      to: { path: "^src/(deps|infra|adapter-choices)\\.ts$" },
    },
    {
      name: "adapters-not-features",
      comment: "Adapters implement ports; they never import a feature (shared types belong in ports/ or contracts/).",
      severity: "error",
      from: { path: "^src/adapters/" },
      to: { path: "^src/features/" },
    },
    {
      name: "ports-not-features",
      comment: "Ports are interfaces over contracts/ and lib/ types; they never import a feature.",
      severity: "error",
      from: { path: "^src/ports/" },
      to: { path: "^src/features/" },
    },
    {
      name: "ports-not-adapters",
      comment: "Ports never import an adapter.",
      severity: "error",
      from: { path: "^src/ports/" },
      to: { path: "^src/adapters/" },
    },
    {
      name: "client-is-portable",
      comment:
        "The typed client (src/client, the package's ./client export) runs in Node and browsers: it reaches the " +
        "routes only through type-only imports, never the Worker's runtime code, storage or cloudflare:*.",
      severity: "error",
      from: { path: "^src/client/" },
      to: {
        path: "^(cloudflare:|drizzle-orm|src/(features|adapters|deps|http|index|app)|durable-objects/)",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "production-not-bench",
      comment: "Nothing in the production Worker imports the bench (its hooks live in bench/worker.ts).",
      severity: "error",
      from: { path: "^(src|durable-objects|contracts)/" },
      to: { path: "^bench/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Tests may reach inside features to build fixtures; the rules are about production code.
    exclude: { path: "(^|/)node_modules/|^\\.wrangler/|\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".json", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
