// Session episodes (ops-warden session_event.v1) and activation: guarded writes, stabilized routes, hints.

import type { SessionEventV1 } from "../../../contracts/session-event.v1";
import type { Principal } from "../../auth/tokens";
import type { AppError } from "../../errors";
import { log } from "../../lib/log";
import { err, ok, type Result } from "../../lib/result";
import type { AuditLogStore } from "../../ports/audit-log";
import type { EventBus } from "../../ports/event-bus";
import type { MemoryStore, SessionEventRow } from "../../ports/memory-store";
import { normalizeFingerprint, stabilizedRoutes } from "./activation";
import { orderEpisodes } from "./episode-order";
import { type GuardVerdict, scanFields } from "./guard/guard";
import type { Caller } from "./namespaces";
import { PRIOR_HISTORY_MS } from "./route-confidence";
import type { Defer, MemoryService, QueryResult } from "./service";
import { guardedSessionFields, sessionEventRow, sessionRefusedEvent } from "./session-episode";
import type { RouteLedger } from "./store/route-ledger-port";

const HISTORY_LIMIT = 5000;
const RECENT_LIMIT = 20;

export type SessionDeps = {
  store: MemoryStore;
  routeLedger: RouteLedger;
  auditLog: AuditLogStore;
  memory: MemoryService;
  events: EventBus;
  newId: (prefix: string) => string;
};

const episode = (e: SessionEventRow) => ({
  id: e.id,
  session_kind: e.sessionKind,
  command: e.command,
  outcome: e.outcome,
  need_fingerprint: e.needFingerprint,
  route_id: e.routeId,
  agent_id: e.agentId,
  session_id: e.sessionId,
  diagnostic_codes: e.diagnosticCodes,
  failure_cause: e.failureCause ?? null,
  episode_index: e.episodeIndex ?? null,
  created_at: e.createdAt,
});

/** The refusal of an episode: a log line without values and a memory_store_failed event after the response. */
function refuse(
  d: SessionDeps,
  principal: Principal,
  e: SessionEventV1,
  verdict: Extract<GuardVerdict, { ok: false }>,
  now: number,
  defer: Defer,
) {
  log.warn("session event refused", { team_id: principal.teamId, code: verdict.code, rule_ids: verdict.ruleIds });
  const event = sessionRefusedEvent(principal, e, verdict, d.newId("evt"), now);
  defer(
    d.events.publish([event]).catch((err) => log.error("memory_store_failed publish failed", { error: String(err) })),
  );
  return err({ code: verdict.code, ruleIds: verdict.ruleIds });
}

/**
 * An activation_id must name one of the team's activations for this very need, or the metrics would count a lie;
 * answers the route it offered (null: no link, or it offered none).
 */
async function checkActivationLink(
  d: SessionDeps,
  teamId: string,
  e: SessionEventV1,
): Promise<Result<string | null, AppError>> {
  if (e.activation_id === undefined) return ok(null);
  const act = await d.routeLedger.activation(teamId, e.activation_id);
  if (act && act.needFingerprint === normalizeFingerprint(e.need_fingerprint)) return ok(act.routeId);
  return err({
    code: "rejected",
    message: "activation_id names no activation of this team for this need_fingerprint",
  });
}

/** Stores one episode; token-like values, raw URLs or PII anywhere in it → 422 and a memory_store_failed event. */
async function record(
  d: SessionDeps,
  principal: Principal,
  e: SessionEventV1,
  now: number,
  defer: Defer,
): Promise<Result<{ id: string; created_at: number }, AppError>> {
  const verdict = await scanFields(guardedSessionFields(e));
  if (!verdict.ok) return refuse(d, principal, e, verdict, now, defer);
  const linked = await checkActivationLink(d, principal.teamId, e);
  if (!linked.ok) return linked;
  const ids = { id: d.newId("sev"), teamId: principal.teamId, offeredRouteId: linked.value };
  const row = sessionEventRow(e, ids, now);
  await d.store.insertSessionEvent(row);
  return ok({ id: row.id, created_at: now });
}

/** Namespaces a session's hints come from: the team's org knowledge plus the token's own scopes. */
function hintNamespaces(p: Caller): string[] {
  const t = `team/${p.teamId}`;
  return [
    `${t}/org`,
    ...(p.personaId ? [`${t}/persona/${p.personaId}`] : []),
    ...(p.taskId ? [`${t}/task/${p.taskId}`] : []),
    ...(p.runId ? [`${t}/run/${p.runId}`] : []),
  ];
}

/** memories for the activation's query in the caller's own namespaces; a failure is logged and answers none */
async function bestEffortHints(
  d: SessionDeps,
  principal: Principal,
  text: string,
  now: number,
): Promise<QueryResult[]> {
  try {
    const found = await d.memory.query(principal, { namespaces: hintNamespaces(principal), text, top_k: 5 }, now);
    // the namespaces come from the token itself, so the fence always lets them through
    return found.ok ? found.value : [];
  } catch (e) {
    // hints are best-effort: activation still answers with routes and episodes
    log.error("activation hints failed", { team_id: principal.teamId, error: String(e) });
    return [];
  }
}

type ActivationBody = { session_kind: string; agent_id?: string; need_fingerprint?: string; query?: string };

/** What an activation reads at once: the need's history, recent episodes, rigid memory, overrides, team totals. */
async function activationReads(
  d: SessionDeps,
  teamId: string,
  body: ActivationBody,
  fp: string | undefined,
  now: number,
) {
  const [history, recent, rigidDocs, overrides, teamTotals] = await Promise.all([
    d.store.sessionEventsForFingerprints(teamId, fp ? [fp] : null, HISTORY_LIMIT),
    d.store.recentSessionEvents(teamId, { sessionKind: body.session_kind, needFingerprint: fp }, RECENT_LIMIT),
    d.store.rigidDocs(teamId, 100),
    d.routeLedger.overrides(teamId, fp ? [fp] : null),
    d.routeLedger.routeOutcomeTotals(teamId, now - PRIOR_HISTORY_MS),
  ]);
  return { history, recent, rigidDocs, overrides, teamTotals };
}

async function activate(d: SessionDeps, principal: Principal, body: ActivationBody, now: number) {
  if (body.agent_id) {
    // stored with the activation record: guarded like any other stored value
    const v = await scanFields([{ path: "agent_id", value: body.agent_id }]);
    if (!v.ok) return err({ code: v.code, ruleIds: v.ruleIds });
  }
  const fp = body.need_fingerprint ? normalizeFingerprint(body.need_fingerprint) : undefined;
  const { history, recent, rigidDocs, overrides, teamTotals } = await activationReads(
    d,
    principal.teamId,
    body,
    fp,
    now,
  );
  const ordered = orderEpisodes(history, (e) => ({
    session: `${e.needFingerprint}\u0000${e.sessionId}`,
    index: e.episodeIndex,
  }));
  const routes = stabilizedRoutes(ordered, overrides, teamTotals);
  const covered = fp ? routes.find((r) => r.need_fingerprint === fp) : undefined;
  const hints = body.query ? await bestEffortHints(d, principal, body.query, now) : [];
  // what this activation serves; the session that follows names it by activation_id, and GET /v1/metrics counts an
  // avoided call only when that session resolved on this route
  const llmCallsAvoided = covered ? 1 : 0;
  const activationId = d.newId("act");
  await d.store.recordActivation({
    id: activationId,
    teamId: principal.teamId,
    sessionKind: body.session_kind,
    agentId: body.agent_id ?? null,
    needFingerprint: fp ?? null,
    routeId: covered?.route_id ?? null,
    llmCallsAvoided,
    createdAt: now,
  });
  return ok({
    activation_id: activationId,
    stabilized_routes: routes,
    recent_episodes: recent.map(episode),
    hints,
    llm_calls_avoided: llmCallsAvoided,
    covered_route: covered?.route_id ?? null,
    rigid: rigidDocs.map((x) => ({
      id: x.id,
      kind: String(x.metadata.rigid_kind ?? "charter"),
      namespace: x.namespace,
      text: x.text,
    })),
  });
}

/** a use-case's arguments after its deps */
type AfterDeps<T extends unknown[]> = T extends [SessionDeps, ...infer R] ? R : never;

export type Sessions = ReturnType<typeof createSessions>;

/** Episodes and activation over one set of dependencies. */
export function createSessions(d: SessionDeps) {
  return {
    record: (...a: AfterDeps<Parameters<typeof record>>) => record(d, ...a),
    activate: (...a: AfterDeps<Parameters<typeof activate>>) => activate(d, ...a),
  };
}
