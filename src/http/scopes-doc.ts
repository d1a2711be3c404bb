// Writes each route's scopes into the OpenAPI document (security + a description line), read from requireScope.
import { SCOPES_OF } from "./middleware";

type RouteEntry = { method: string; path: string; handler: unknown };
type Operation = { security?: Record<string, string[]>[]; description?: string };
type Doc = { paths?: Record<string, Record<string, Operation>> };

/** "METHOD /path/{param}" → the scopes any one of which the route accepts, from the app's registered handlers. */
export function routeScopes(routes: readonly RouteEntry[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of routes) {
    const scopes = (r.handler as { [SCOPES_OF]?: string[] } | null)?.[SCOPES_OF];
    if (!scopes) continue;
    out.set(`${r.method.toLowerCase()} ${r.path.replaceAll(/:(\w+)/g, "{$1}")}`, scopes);
  }
  return out;
}

/** Sets `security: [{bearerAuth: scopes}]` and opens the description with "Scopes: a or b." on every scoped route. */
export function documentScopes<D>(doc: D, routes: readonly RouteEntry[]): D {
  const scopes = routeScopes(routes);
  for (const [path, ops] of Object.entries((doc as Doc).paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const s = scopes.get(`${method} ${path}`);
      if (!s) continue;
      op.security = [{ bearerAuth: s }];
      const line = `Scope${s.length > 1 ? "s" : ""}: ${s.join(" or ")}.`;
      if (!op.description?.startsWith("Scope")) op.description = op.description ? `${line} ${op.description}` : line;
    }
  }
  return doc;
}
