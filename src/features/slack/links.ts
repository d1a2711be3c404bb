// Signed trace links for every message Warden posts in Slack: a read-only view token (as POST /v1/views mints them).
import { mintViewToken } from "../../auth/view-token";
import { traceUrl } from "./blocks";

type LinkNeeds = { clock: { now(): number }; config: { PUBLIC_URL: string; WARDEN_JWT_SECRET: string } };

async function runViewToken(deps: LinkNeeds, teamId: string, runId: string): Promise<string> {
  const claims = { kind: "run" as const, team_id: teamId, run_id: runId };
  return (await mintViewToken(deps.config.WARDEN_JWT_SECRET, claims, deps.clock.now())).token;
}

/** One artifact of a run that opens for ≤ 15 minutes: a run's view token opens any artifact of that run. */
export async function signedArtifactLink(deps: LinkNeeds, teamId: string, runId: string, artifactId: string) {
  const base = deps.config.PUBLIC_URL.replace(/\/$/, "");
  return `${base}/artifacts/${encodeURIComponent(artifactId)}?view=${await runViewToken(deps, teamId, runId)}`;
}

/**
 * A run's trace URL that opens for ≤ 15 minutes (a bare URL opens the "Link expired" page), optionally anchored
 * (`gate-<gate_id>`). After it expires, `/warden status <run_id>` answers with a fresh one.
 */
export async function signedRunLink(deps: LinkNeeds, teamId: string, runId: string, anchor?: string): Promise<string> {
  const token = await runViewToken(deps, teamId, runId);
  return `${traceUrl(deps.config.PUBLIC_URL, runId)}?view=${token}${anchor ? `#${encodeURIComponent(anchor)}` : ""}`;
}
