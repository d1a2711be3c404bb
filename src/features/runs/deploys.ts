// The run side of policy deploys (pure): a proposed deploy becomes a policy_deploy gate on the team's control run.
import { DEPLOY_TARGET_SPECS, deployOpId, gateIdFor, openGate } from "../gates/domain";
import { gateHost } from "./gate-ops";
import { create } from "./lifecycle";
import type { CommandOf, Effects, ReduceResult, RunState } from "./model";
import type { RunOpReply } from "./operations";
import { conflict, Tx } from "./tx";

export function proposeDeploy(
  state: RunState | null,
  cmd: CommandOf<"propose_deploy">,
  now: number,
): ReduceResult<RunOpReply<"propose_deploy">> {
  let base = state;
  let fresh: Effects | null = null;
  if (base === null) {
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
    base = created.state;
    fresh = created.effects;
  } else if (base.run.team_id !== cmd.actor.team_id || base.run.kind !== "control") {
    return conflict("not this team's control run");
  }
  const tx = new Tx(base, now);
  if (fresh) {
    tx.effects.events.push(...fresh.events);
    tx.effects.records.push(...fresh.records);
  }
  const op_id = deployOpId(cmd.target, cmd.version);
  const existing = tx.gate(gateIdFor(tx.run.run_id, op_id, "policy_deploy"));
  const gate =
    existing ??
    openGate(gateHost(tx), {
      op_id,
      policy_key: "policy_deploy",
      context: { target: cmd.target, version: cmd.version },
      subject: { type: "deploy", target: cmd.target, version: cmd.version },
      opener: cmd.actor.subject,
      rules: { version: 0, rules: [] },
    });
  if (!existing) {
    tx.audit(
      cmd.actor.subject,
      `policy.${cmd.target}.proposed`,
      DEPLOY_TARGET_SPECS[cmd.target].table,
      String(cmd.version),
      {
        gate_id: gate.gate_id,
      },
    );
  }
  return tx.result({ run_id: tx.run.run_id, op_id, gate_id: gate.gate_id, version: cmd.version, status: "pending" });
}
