// RunGateway over the RUN Durable Object namespace: one object per run, addressed by name, called over Workers RPC.
import { toHex } from "../../lib/digest";
import type { RunGateway } from "../../ports/run-gateway";

/** Any namespace whose stubs are `Ops` (typed structurally to keep adapters free of the DO class). */
export function createDurableRunGateway<Ops>(
  namespace: {
    idFromName(name: string): DurableObjectId;
    get(id: DurableObjectId): Ops;
  },
  /** keys the control-run id, so nobody without the server's secret can name (and pre-approve on) a team's control run */
  secret: string,
): RunGateway<Ops> {
  const controlIds = new Map<string, string>();
  let key: Promise<CryptoKey> | null = null;
  return {
    get: (runId) => namespace.get(namespace.idFromName(runId)),
    async controlRunId(teamId) {
      let id = controlIds.get(teamId);
      if (!id) {
        key ??= crypto.subtle.importKey(
          "raw",
          new TextEncoder().encode(`warden-control-run\u001f${secret}`),
          { name: "HMAC", hash: "SHA-256" },
          false,
          ["sign"],
        );
        const digest = await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(teamId));
        id = `ctl_${toHex(new Uint8Array(digest).slice(0, 16))}`;
        if (controlIds.size > 10_000) controlIds.clear();
        controlIds.set(teamId, id);
      }
      return id;
    },
  };
}
