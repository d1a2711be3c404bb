// Calls for the second-wave routes (DESIGN.md §5) whose route types are not in this branch yet: typed by hand from the contract.

export type ViewRequest = { kind: "run"; run_id: string } | { kind: "team" };
export type ViewLink = { url: string; expires_at: string };
export type OpenGate = {
  gate_id: string;
  run_id: string;
  op_id: string;
  policy_key: string;
  kind: "auto" | "soft" | "hard" | "deny";
  age_ms?: number;
  deadline?: string | null;
  [k: string]: unknown;
};
export type GateDecision = "approve_retry" | "approve_skip" | "approve_abort" | "deny";
export type RunSummary = { run_id: string; status: string; goal?: string; created_at?: string; [k: string]: unknown };
export type LeaseNext = { run_id: string; order_id: string; lease_id: string; epoch: number; [k: string]: unknown };

type Raw = (method: string, path: string, body?: unknown) => Promise<Response>;

/** Thin typed calls over a raw fetcher (`rawFetcher` below); each resolves to the parsed body, or undefined on 204. */
export function pendingCalls(raw: Raw) {
  const json = async <T>(res: Response): Promise<{ status: number; ok: boolean; body: T; headers: Headers }> => ({
    status: res.status,
    ok: res.ok,
    headers: res.headers,
    body: (res.status === 204 ? undefined : await res.json().catch(() => undefined)) as T,
  });
  return {
    /** POST /v1/views → a signed read-only page URL (≤ 15 min) for one run or the team overview. */
    createView: (req: ViewRequest) => raw("POST", "/v1/views", req).then(json<ViewLink>),
    /** GET /v1/gates?status=open → the team's open gates, oldest first. */
    openGates: () => raw("GET", "/v1/gates?status=open").then(json<{ gates: OpenGate[] }>),
    /** POST /v1/gates/:gate_id/decision; `note` is required for hard gates. */
    decideGate: (gateId: string, decision: GateDecision, note?: string) =>
      raw(
        "POST",
        `/v1/gates/${encodeURIComponent(gateId)}/decision`,
        note === undefined ? { decision } : { decision, note },
      ).then(json<Record<string, unknown>>),
    /** GET /v1/runs?status=&cursor= → one page of the team's runs. */
    listRuns: (q: { status?: string; cursor?: string } = {}) => {
      const qs = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));
      return raw("GET", `/v1/runs${qs.size ? `?${qs}` : ""}`).then(
        json<{ runs: RunSummary[]; next_cursor?: string | null }>,
      );
    },
    /** POST /v1/orders/lease-next → a lease on the oldest available order, or 204 (+ Retry-After) when none. */
    leaseNext: (req: { worker_id: string; skills?: string[] }) =>
      raw("POST", "/v1/orders/lease-next", req).then(json<LeaseNext | undefined>),
  };
}

/** A raw JSON fetcher with the bearer token, for the calls above. */
export function rawFetcher(baseUrl: string, token?: string, f: typeof fetch = fetch): Raw {
  const base = baseUrl.replace(/\/$/, "");
  return (method, path, body) =>
    f(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}
