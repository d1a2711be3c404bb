// RunGateway over the RUN Durable Object namespace: one object per run, addressed by name, called over RPC.
import type { RunGateway, RunReply, RunRequest } from "../../ports/run-gateway";

type RunObject = { dispatch(runId: string, request: RunRequest): Promise<RunReply> };

/** Any DO namespace whose objects answer `dispatch` (typed structurally to keep adapters free of the DO class). */
export function createDurableRunGateway<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
): RunGateway {
  const controlIds = new Map<string, string>();
  return {
    dispatch(runId, request) {
      const stub = namespace.get(namespace.idFromName(runId)) as unknown as RunObject;
      return stub.dispatch(runId, request);
    },
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
