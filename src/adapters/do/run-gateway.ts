// RunGateway over the RUN Durable Object namespace: one object per run, addressed by name, called over Workers RPC.
import type { RunGateway } from "../../ports/run-gateway";

/** Any namespace whose stubs are `Ops` (typed structurally to keep adapters free of the DO class). */
export function createDurableRunGateway<Ops>(namespace: {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): Ops;
}): RunGateway<Ops> {
  const controlIds = new Map<string, string>();
  return {
    get: (runId) => namespace.get(namespace.idFromName(runId)),
    async controlRunId(teamId) {
      let id = controlIds.get(teamId);
      if (!id) {
        const digest = await crypto.subtle.digest(
          "SHA-256",
          new TextEncoder().encode(`warden-control-run\u001f${teamId}`),
        );
        id = `ctl_${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
        if (controlIds.size > 10_000) controlIds.clear();
        controlIds.set(teamId, id);
      }
      return id;
    },
  };
}
