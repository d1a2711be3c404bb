// The deploy-target registry: every team setting an admin changes behind a hard gate (profile, gate rules, mode
// ceiling, route pins, limit increases, the deploy-approver roster: policy_deploy; the Slack installation: slack_channel_change) declares here its
// table, how a pending version is activated and which caches then go stale.

import type { AuditEntry } from "../../ports/audit-log";
import type { TeamLimitRequests } from "../../ports/team-limits";
import type { RouteLedger } from "../memory/domain";
import type { PolicyStore } from "../policy/domain";
import type { SlackStore } from "../slack/domain";
import type { DeployApproverStore } from "./store/deploy-approvers-port";
import type { GateRuleStore } from "./store/gate-rule-store-port";

/** The only list of deploy targets: everything else is typed and dispatched from it. */
export const DEPLOY_TARGETS = ["profile", "gates", "ceiling", "route_pin", "slack", "limits", "approvers"] as const;
export type DeployTarget = (typeof DEPLOY_TARGETS)[number];

/** What a target needs to activate a version and drop the cached copies of the old one. */
export type DeployNeeds = {
  policyStore: Pick<PolicyStore, "activateProfile" | "applyCeilingRequest">;
  gateRuleStore: Pick<GateRuleStore, "activate">;
  routeLedger: Pick<RouteLedger, "applyPinRequest">;
  slackStore: Pick<SlackStore, "activateChange">;
  teamLimitStore: Pick<TeamLimitRequests, "applyRequest">;
  deployApproverStore: Pick<DeployApproverStore, "applyRequest">;
  policies: { invalidate(teamId: string): void };
  gateRules: { invalidate(teamId: string): void };
};

/** The gate a Slack roster or channel change waits behind (always hard: deploy gates see no team rules). */
export const SLACK_CHANGE_POLICY_KEY = "slack_channel_change";

type DeployTargetSpec = {
  /** the D1 table that holds its versions (audit rows name it as their subject type) */
  table: string;
  /** the policy key of its gate, when not policy_deploy */
  policyKey?: string;
  /** makes a pending version live; false (and no change) when it is not pending */
  activate(needs: DeployNeeds, teamId: string, version: number, now: number): Promise<boolean>;
  /** the per-isolate caches that serve the old version until told */
  invalidate(needs: DeployNeeds, teamId: string): void;
};

/**
 * The audit row of a request version the approval activated, written in the activation's own batch; one id per team,
 * table and version, so an activation is audited once.
 */
function activationAudit(action: string, table: string, teamId: string, version: number, now: number): AuditEntry {
  return {
    id: `aud_${table}_${teamId}_v${version}`,
    teamId,
    actor: "policy_deploy",
    action,
    subjectType: table,
    subjectId: `${teamId}/v${version}`,
    metadata: { version },
    createdAt: now,
  };
}

/** A request table whose store applies a version and writes its activation audit row in the same batch. */
type AuditedRequestStore = Pick<TeamLimitRequests, "applyRequest"> | Pick<DeployApproverStore, "applyRequest">;

/** A target kept in an audited request table, with no cache of its own for an activation to drop. */
function auditedRequests(
  table: string,
  action: string,
  store: (needs: DeployNeeds) => AuditedRequestStore,
): DeployTargetSpec {
  return {
    table,
    activate: (n, team, version, now) =>
      store(n).applyRequest(team, version, now, activationAudit(action, table, team, version, now)),
    invalidate: () => {},
  };
}

export const DEPLOY_TARGET_SPECS: Record<DeployTarget, DeployTargetSpec> = {
  profile: {
    table: "policy_profile",
    activate: (n, team, version, now) => n.policyStore.activateProfile(team, version, now),
    invalidate: (n, team) => n.policies.invalidate(team),
  },
  gates: {
    table: "gate_rule",
    activate: (n, team, version, now) => n.gateRuleStore.activate(team, version, now),
    invalidate: (n, team) => n.gateRules.invalidate(team),
  },
  ceiling: {
    table: "mode_ceiling_request",
    activate: (n, team, version, now) => n.policyStore.applyCeilingRequest(team, version, now),
    invalidate: (n, team) => n.policies.invalidate(team),
  },
  // pinning a route makes memory serve it whatever its record: a hard gate, like any deploy (activation reads
  // route_override on every request, so there is no cache to drop)
  route_pin: {
    table: "route_pin_request",
    activate: (n, team, version, now) => n.routeLedger.applyPinRequest(team, version, now),
    invalidate: () => {},
  },
  // roster and channel changes after the first install (the installation is read from D1 per request: no cache)
  slack: {
    table: "slack_change_request",
    policyKey: SLACK_CHANGE_POLICY_KEY,
    activate: (n, team, version, now) => n.slackStore.activateChange(team, version, now),
    invalidate: () => {},
  },
  // rate-limit increases above the defaults (PUT /v1/limits); other isolates read the new limits within their 60 s
  // cache, so there is nothing here to drop
  limits: auditedRequests("team_limit_request", "team_limits.updated", (n) => n.teamLimitStore),
  // the deploy-approver roster: read from D1 on every control-run decision, so there is no cache to drop
  approvers: auditedRequests("deploy_approver_request", "deploy_approvers.updated", (n) => n.deployApproverStore),
};

/**
 * The op_id of a deploy's gate on the team's control run: one gate per target and version, with a random part
 * (`nonce`, from the id source) so nobody can name, and so pre-approve, a deploy before it is proposed.
 */
export const deployOpId = (target: DeployTarget, version: number, nonce: string) =>
  `deploy-${target}-v${version}-${nonce}`;

/** Whether a gate's op_id is a deploy of `target` (the gate index has no subject: the op_id names it). */
export const isDeployOpOf = (target: DeployTarget, opId: string) => opId.startsWith(`deploy-${target}-v`);
