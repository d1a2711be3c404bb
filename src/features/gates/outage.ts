// The approval-outage fallback (RB-06, pure): which gates it denies, and when it is in force for a team.
import type { ApprovalOutage } from "../slack/domain";
import { DEPLOY_TARGET_SPECS } from "./deploy-targets";
import type { Gate } from "./model";

/**
 * In force while the team's Slack deliveries are failing (an outage is recorded) unless two admins confirmed an
 * override that has not expired (docs/slack.md "Approval outage"). Turning it on needs nobody.
 */
export function outageFallbackInForce(outage: ApprovalOutage | null | undefined, now: number): boolean {
  if (!outage) return false;
  const until = outage.override?.until ?? null;
  return !(until !== null && until > now);
}

/**
 * The risky gates the fallback denies: hard gates (the ones that wait for a human, whom Slack cannot reach now).
 * Soft gates keep their timer: the approval matrix already lets them pass without a human. Deploy gates
 * (policy_deploy, slack_channel_change) are left to the admins who proposed them: repairing the Slack installation
 * goes through one.
 */
export const fallbackDenies = (g: Pick<Gate, "kind" | "status" | "subject">) =>
  g.status === "pending" && g.kind === "hard" && g.subject.type !== "deploy";

/** The note the fallback's deny records (a hard gate's decision always carries one). */
export const fallbackNote = (since: number) =>
  `approval outage: Slack deliveries to this team have failed since ${new Date(since).toISOString()}; ` +
  "risky gates are denied until Slack is back or two admins override (RB-06)";

const DEPLOY_POLICY_KEYS: ReadonlySet<string> = new Set(
  Object.values(DEPLOY_TARGET_SPECS).map((s) => s.policyKey ?? "policy_deploy"),
);

/** The same test on a row of the D1 gate index (no subject there: deploy gates are known by their policy key). */
export const fallbackDeniesIndexed = (row: { kind: string; status: string; policy_key: string }) =>
  row.status === "pending" && row.kind === "hard" && !DEPLOY_POLICY_KEYS.has(row.policy_key);
