// A gate's content digest (pure): what an approver saw, so an approval applies only to that content.
import { canonicalJson } from "../../lib/digest";
import { sha256HexSync } from "../../lib/sha256";

/**
 * sha256 hex of the canonical JSON (sorted keys) of `{ context, op_id, policy_key }`: the gate views show it, and an
 * approver who decides before the gate is armed computes it from the content it expects and sends it along.
 */
export const gateDigest = (g: { op_id: string; policy_key: string; context: Record<string, unknown> }) =>
  sha256HexSync(canonicalJson({ context: g.context, op_id: g.op_id, policy_key: g.policy_key }));
