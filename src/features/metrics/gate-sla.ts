// GET /v1/metrics' gate SLA figures (added fields): breaches of the acknowledge and resolve SLAs among the gates opened
// in the window, and how long the first response took (p50/p95).
import { type GateSlaNeeds, teamSlaFigures } from "../gates";
import { percentile } from "./ops-warden";

export async function gateSlaMetrics(deps: GateSlaNeeds, teamId: string, since: number, now: number) {
  const f = await teamSlaFigures(deps, teamId, since, now);
  return {
    gate_ack_sla_breaches: f.ack_breaches,
    gate_resolve_sla_breaches: f.resolve_breaches,
    gate_ack_latency_ms: {
      p50: percentile(f.ack_latencies_ms, 50),
      p95: percentile(f.ack_latencies_ms, 95),
      samples: f.ack_latencies_ms.length,
    },
  };
}
