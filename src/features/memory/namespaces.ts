// Memory namespaces (pure): parsing team/<team_id>/{org|task/<id>|persona/<id>|run/<id>|project/<id>}/... and token fences.
import type { Principal } from "../../auth/tokens";
import { err, ok, type Result } from "../../lib/result";

export type ScopeKind = "org" | "task" | "persona" | "run" | "project";
export type ParsedNamespace = {
  namespace: string;
  teamId: string;
  kind: ScopeKind;
  /** the task/persona/run/project id; null for org */
  scopeId: string | null;
  /** team/<team>/<kind>[/<id>]: the unit the vector index filters on */
  scope: string;
};

/**
 * Who a memory use-case acts for: a token's principal, or the team itself for Warden's own callers (learning,
 * hints), which carry no run/task/persona claim and so reach every namespace of their team.
 */
export type Caller = Pick<Principal, "teamId" | "runId" | "taskId" | "personaId">;
/** Warden acting for a whole team (no token): unscoped within that team only. */
export const teamCaller = (teamId: string): Caller => ({ teamId });

const SEGMENT = /^[A-Za-z0-9_.:@+-]{1,128}$/;
export const MAX_NAMESPACE_LENGTH = 512;
const MAX_DEPTH = 12;

export function parseNamespace(namespace: string): Result<ParsedNamespace, string> {
  if (namespace.length > MAX_NAMESPACE_LENGTH) return err(`namespace longer than ${MAX_NAMESPACE_LENGTH} characters`);
  const parts = namespace.split("/");
  if (parts.length > MAX_DEPTH) return err(`namespace deeper than ${MAX_DEPTH} segments`);
  if (parts.some((p) => !SEGMENT.test(p) || p === "." || p === "..")) {
    return err("namespace segments are 1-128 characters of A-Z a-z 0-9 _ . : @ + -");
  }
  const [root, teamId, kind, scopeId] = parts;
  if (root !== "team" || !teamId || !kind) return err("namespace must start with team/<team_id>/");
  if (kind === "org") return ok({ namespace, teamId, kind, scopeId: null, scope: `team/${teamId}/org` });
  if (kind === "task" || kind === "persona" || kind === "run" || kind === "project") {
    if (!scopeId) return err(`namespace needs an id after ${kind}/`);
    return ok({ namespace, teamId, kind, scopeId, scope: `team/${teamId}/${kind}/${scopeId}` });
  }
  return err("namespace scope must be org, task/<id>, persona/<id>, run/<id> or project/<id>");
}

/** True when `docNamespace` is `requested` itself or below it. */
export function withinNamespace(docNamespace: string, requested: string): boolean {
  return docNamespace === requested || docNamespace.startsWith(`${requested}/`);
}

/**
 * Token fences. A team never reaches another team's namespaces. A token carrying run_id, task_id or persona_id is
 * scoped: among run/task/persona namespaces it reaches only its own; it may read the shared org and project
 * namespaces but write only to its own. A token without those claims reaches every namespace of its team.
 */
export function fence(principal: Caller, ns: ParsedNamespace, mode: "read" | "write"): Result<true, string> {
  if (ns.teamId !== principal.teamId) return err("namespace belongs to another team");
  const claims: Partial<Record<ScopeKind, string | undefined>> = {
    run: principal.runId,
    task: principal.taskId,
    persona: principal.personaId,
  };
  const scoped = principal.runId !== undefined || principal.taskId !== undefined || principal.personaId !== undefined;
  if (!scoped) return ok(true);
  if (ns.kind === "org" || ns.kind === "project") {
    return mode === "read" ? ok(true) : err(`a ${scopeName(principal)}-scoped token writes only to its own namespaces`);
  }
  if (claims[ns.kind] !== undefined && claims[ns.kind] === ns.scopeId) return ok(true);
  return err(`a ${scopeName(principal)}-scoped token reaches only its own ${ns.kind} namespace`);
}

const scopeName = (p: Caller) =>
  [p.runId && "run", p.taskId && "task", p.personaId && "persona"].filter(Boolean).join("/");

/** The importance row a caller reads and boosts: its persona (role) when the token names one, else the team's. */
export function actorKeyOf(principal: Caller): string {
  return principal.personaId ? `persona:${principal.personaId}` : "team";
}
