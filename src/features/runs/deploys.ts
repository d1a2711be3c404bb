// The run side of policy deploys (pure): a proposed deploy becomes a policy_deploy gate on the team's control run.
import { applyDecision, DEPLOY_TARGET_SPECS, deployOpId, openGate } from "../gates/domain";
import { gateHost } from "./gate-ops";
import { create } from "./lifecycle";
import type { CommandOf, Failure, ReduceResult, RunState } from "./model";
import type { RunOpReply } from "./operations";
import { conflict, Tx } from "./tx";

/** propose_deploy: opens (once per target and version) the deploy's policy_deploy gate on the control run. */
export function proposeDeploy(
  state: RunState | null,
  cmd: CommandOf<"propose_deploy">,
  now: number,
): ReduceResult<RunOpReply<"propose_deploy">> {
  const tx = controlRun(state, cmd, now);
  if ("ok" in tx) return tx;
  const { target, version } = cmd;
  const existing = tx
    .allGates()
    .find((g) => g.subject.type === "deploy" && g.subject.target === target && g.subject.version === version);
  const op_id = existing?.op_id ?? deployOpId(target, version, cmd.nonce);
  const gate =
    existing ??
    openGate(gateHost(tx), {
      op_id,
      policy_key: DEPLOY_TARGET_SPECS[target].policyKey ?? "policy_deploy",
      context: { ...cmd.context, target, version },
      subject: { type: "deploy", target, version },
      opener: cmd.actor.subject,
      openerIssuer: cmd.actor.issued_by,
      rules: { version: 0, rules: [] },
      escalate_after_ms: cmd.escalate_after_ms,
    });
  if (!existing) {
    const table = DEPLOY_TARGET_SPECS[target].table;
    tx.audit(cmd.actor.subject, `policy.${target}.proposed`, table, String(version), { gate_id: gate.gate_id });
    supersedeOlder(tx, target, version, cmd.actor.subject);
  }
  return tx.result({ run_id: tx.run.run_id, op_id, gate_id: gate.gate_id, version, status: "pending" });
}

/** A newer proposal for a target replaces the older ones still pending: they end `superseded`, never activate. */
function supersedeOlder(tx: Tx, target: string, version: number, proposer: string): void {
  for (const g of tx.allGates().sort((a, b) => a.seq - b.seq)) {
    if (g.status !== "pending" || g.subject.type !== "deploy") continue;
    if (g.subject.target !== target || g.subject.version >= version) continue;
    const why = `superseded by version ${version}`;
    applyDecision(gateHost(tx), g, "deny", proposer, null, why, { channel: "policy", resolution: "superseded" });
  }
}

/** The team's control run (created on its first deploy, its run.started kept in the effects) as a transaction. */
function controlRun(state: RunState | null, cmd: CommandOf<"propose_deploy">, now: number): Tx | Failure {
  if (state !== null) {
    if (state.run.team_id !== cmd.actor.team_id || state.run.kind !== "control")
      return conflict("not this team's control run");
    return new Tx(state, now);
  }
  const created = create(
    {
      type: "create",
      actor: cmd.actor,
      run_id: cmd.run_id,
      kind: "control",
      goal: `policy deploys for team ${cmd.actor.team_id}`,
      template: null,
      skills: [],
      budget: { input_tokens: 0, output_tokens: 0, total_tokens: null },
      hints: [],
      snapshot: { version: "1.0.0", taken_at: now, retry_adjustments: {}, warnings: [] },
    },
    now,
  );
  if (!created.ok) return created;
  const tx = new Tx(created.state, now);
  tx.effects.events.push(...created.effects.events);
  tx.effects.records.push(...created.effects.records);
  return tx;
}
