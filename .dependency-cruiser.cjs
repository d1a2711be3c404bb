// Layering rules of docs/architecture.md ("Dependency rules"), checked by `npm test` (`npm run deps`).

/**
 * The files under src/features/ that may import hono, @hono/* and cloudflare:*: a feature's HTTP layer (routes.ts,
 * routes/, any *-routes.ts) and public entry (index.ts), plus the feature-definition module (feature.ts) and the one
 * list (index.ts) that compose the route groups.
 */
const HTTP_LAYER = [
  "^src/features/[^/]+/(routes\\.tsx?$|routes/|[^/]+-routes\\.tsx?$|index\\.ts$)",
  "^src/features/(index|feature)\\.ts$",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-is-pure",
      comment:
        "Inside a feature only the HTTP layer (routes.ts, routes/, *-routes.ts) and the public entry (index.ts) may import " +
        "hono, @hono/* or cloudflare:*, and of src/features/ itself the feature definition (feature.ts) and the list " +
        "(index.ts); use-cases and domain files reach storage and the runtime through ports (drizzle: drizzle-only-in-stores). " +
        "Matched both as a bare name and as a resolved package path (node_modules/…).",
      severity: "error",
      from: {
        path: "^src/features/",
        pathNot: HTTP_LAYER,
      },
      to: { path: "^(hono|@hono/|cloudflare:)|node_modules/(hono|@hono)/" },
    },
    {
      name: "drizzle-only-in-stores",
      comment:
        "drizzle (the D1 query builder) is imported only by the store adapters of a feature (src/features/<name>/store/), " +
        "the shared D1 helpers and the memory adapters (src/adapters/d1/) and the composition root that opens the database.",
      severity: "error",
      from: {
        path: "^(src|durable-objects)/",
        pathNot: "^(src/features/[^/]+/store/|src/adapters/d1/|src/infra\\.ts$)",
      },
      to: { path: "(^|node_modules/)drizzle-orm" },
    },
    {
      name: "tables-are-definitions",
      comment:
        "A feature's tables (store/tables.ts) are drizzle definitions only: they import drizzle's column builders and the " +
        "shared column helpers, nothing of a feature, so any store may read them without coupling to the feature's services.",
      severity: "error",
      from: { path: "^src/features/[^/]+/store/tables\\.ts$" },
      to: { path: "^src/", pathNot: "^src/adapters/d1/columns\\.ts$" },
    },
    {
      name: "store-through-public-entry",
      comment:
        "A feature's store adapters are reached from outside the feature only through its public entry (index.ts) or by " +
        "the composition root (src/infra.ts); its tables (store/tables.ts) are readable by every store.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/features/", "^src/infra\\.ts$", "^src/adapters/d1/"] },
      to: { path: "^src/features/[^/]+/store/" },
    },
    {
      name: "feature-public-entry",
      comment:
        "A feature imports another feature only through its public entries: src/features/<name>/index.ts (routes, " +
        "services, wiring), src/features/<name>/domain.ts (its pure part: types and functions, no I/O) or its drizzle " +
        "tables src/features/<name>/store/tables.ts (definitions only, for the stores that read them).",
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: {
        path: "^src/features/[^/]+/",
        pathNot: ["^src/features/$1/", "^src/features/[^/]+/(index|domain|store/tables)\\.ts$"],
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
      comment:
        "Adapters implement ports; they never import a feature (shared types belong in ports/ or contracts/), except a " +
        "feature's table definitions (store/tables.ts) that the memory adapters still in src/adapters/d1/ read.",
      severity: "error",
      from: { path: "^src/adapters/" },
      to: { path: "^src/features/", pathNot: "^src/features/[^/]+/store/tables\\.ts$" },
    },
    {
      name: "ports-stand-alone",
      comment: "Ports are interfaces over contracts/ and lib/ types; they never import a feature or an adapter.",
      severity: "error",
      from: { path: "^src/ports/" },
      to: { path: "^src/(features|adapters)/" },
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
    // Tests (and the contract suites they run, *.contract.ts) may reach inside features to build fixtures; the rules are
    // about production code.
    // node_modules are left out but drizzle-orm and hono, which drizzle-only-in-stores and domain-is-pure must see
    // (an excluded package is invisible to every rule)
    exclude: { path: "(^|/)node_modules/(?!drizzle-orm/|hono/|@hono/)|^\\.wrangler/|\\.test\\.ts$|\\.contract\\.ts$" },
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
