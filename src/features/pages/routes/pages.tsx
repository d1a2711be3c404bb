// GET /runs/:run_id/trace and GET /teams/:team_id/overview: server-rendered pages opened with a view token (?view=).
import type { Context } from "hono";
import { mintViewToken, opens, type VerifiedView, type ViewScope, verifyViewToken } from "../../../auth/view-token";
import { featureApp } from "../../../http/openapi";
import type { FeatureEnv } from "../../../http/types";
import { teamSlaFigures } from "../../gates";
import type { RunActor } from "../../runs";
import { DAY_MS, gateSteps, overviewModel, percentile, SERIES_DAYS, traceSteps } from "../model";
import type { PagesNeeds } from "../needs";
import type { PersonaRow } from "./board-section";
import { errorPage, page } from "./layout";
import { OverviewPage } from "./overview-page";
import { TracePage } from "./trace-page";

type Ctx = Context<FeatureEnv<PagesNeeds>>;
const UNAUTHORIZED = "This link is not valid, has expired, or does not open this page.";

/** The view token of the request if it opens exactly `wanted`, else null (the caller answers a plain 401 page). */
async function viewFor(c: Ctx, wanted: (v: VerifiedView) => ViewScope | null): Promise<VerifiedView | null> {
  const token = c.req.query("view") ?? "";
  const verified = await verifyViewToken(c.env.deps.config.WARDEN_JWT_SECRET, token, c.env.deps.clock.now());
  if (!verified.ok) return null;
  const scope = wanted(verified.value);
  return scope !== null && opens(verified.value, scope) ? verified.value : null;
}

const validId = (s: string) => s.length >= 1 && s.length <= 128;

/** A signed trace link (relative: the same server) for each run the overview shows, minted with the page. */
async function runLinks(c: Ctx, teamId: string, runIds: readonly string[]): Promise<Record<string, string>> {
  const { config, clock } = c.env.deps;
  const now = clock.now();
  const links: Record<string, string> = {};
  for (const runId of new Set(runIds)) {
    const { token } = await mintViewToken(
      config.WARDEN_JWT_SECRET,
      { kind: "run", team_id: teamId, run_id: runId },
      now,
    );
    links[runId] = `/runs/${encodeURIComponent(runId)}/trace?view=${token}`;
  }
  return links;
}

export const pageRoutes = featureApp<PagesNeeds>()
  .get("/runs/:run_id/trace", async (c) => {
    const runId = c.req.param("run_id");
    if (!validId(runId)) return errorPage(404, "No such run.");
    const view = await viewFor(c, (v) => ({ kind: "run", team_id: v.team_id, run_id: runId }));
    if (!view) return errorPage(401, UNAUTHORIZED);
    const { deps } = c.env;
    const actor: RunActor = { team_id: view.team_id, subject: "view-token", run_id: runId };
    const run = deps.runs.get(runId);
    const [viewed, explained, attempts] = await Promise.all([
      run.view(runId, { actor }),
      run.explain(runId, { actor }),
      deps.overviewStore.runAttempts(view.team_id, runId),
    ]);
    // a run this link's team does not own looks like any other link that does not open the page
    if (!viewed.ok || !explained.ok) return errorPage(401, UNAUTHORIZED);
    const gateIds = viewed.value.gates.map((g) => g.gate_id);
    const cards = await deps.overviewStore.gateCards(view.team_id, gateIds);
    return page(
      <TracePage
        teamId={view.team_id}
        view={viewed.value}
        explain={explained.value}
        steps={traceSteps(viewed.value, attempts)}
        gateSteps={gateSteps(gateIds, cards)}
        now={deps.clock.now()}
        expiresAt={view.expires_at_ms}
        artifactHref={(id) =>
          `/artifacts/${encodeURIComponent(id)}?view=${encodeURIComponent(c.req.query("view") ?? "")}`
        }
      />,
    );
  })
  .get("/teams/:team_id/overview", async (c) => {
    const teamId = c.req.param("team_id");
    if (!validId(teamId)) return errorPage(404, "No such team.");
    const view = await viewFor(c, () => ({ kind: "team", team_id: teamId }));
    if (!view) return errorPage(401, UNAUTHORIZED);
    const { deps } = c.env;
    const now = deps.clock.now();
    const since = now - SERIES_DAYS * DAY_MS;
    const [raw, personas, sla] = await Promise.all([
      deps.overviewStore.teamOverview(view.team_id, since),
      deps.board.forTeam(view.team_id).personas(),
      teamSlaFigures(deps, view.team_id, since, now),
    ]);
    const shown = [...raw.runs, ...raw.openGates, ...raw.deadLetters].map((r) => r.run_id);
    const links = await runLinks(c, view.team_id, shown);
    return page(
      <OverviewPage
        teamId={view.team_id}
        model={overviewModel(raw, now)}
        expiresAt={view.expires_at_ms}
        runLinks={links}
        personas={personas.ok ? (personas.value as PersonaRow[]) : []}
        sla={{
          ack_breaches: sla.ack_breaches,
          resolve_breaches: sla.resolve_breaches,
          ack_latency_p50_ms: percentile(sla.ack_latencies_ms, 50),
          ack_latency_p95_ms: percentile(sla.ack_latencies_ms, 95),
          samples: sla.ack_latencies_ms.length,
        }}
      />,
    );
  });
