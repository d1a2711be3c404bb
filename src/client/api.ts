// The typed client's core: hono's `hc` over the app's route types, and the error envelope as WardenError.
import { hc } from "hono/client";
import type { Api } from "./app-type.ts";

export type ClientOptions = {
  baseUrl: string;
  /** a bearer token, or a function asked before every request (a `createTokenSession(…).token`) */
  token?: string | (() => string | Promise<string>);
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /**
   * Where a person decides through this client: sent as `X-Warden-Channel` and recorded on gate decisions
   * (`POST /v1/gates/:gate_id/decision`, `POST /v1/approvals`); the server reads it nowhere else. Absent = api.
   */
  channel?: "api" | "cli" | "web";
};

/** The raw typed client (hono's `hc`): request and response types come from the routes' zod schemas. */
export function createApi(o: ClientOptions): Api {
  const base: Record<string, string> = { ...o.headers, ...(o.channel ? { "x-warden-channel": o.channel } : {}) };
  const { token } = o;
  const headers =
    typeof token === "function"
      ? async () => ({ ...base, authorization: `Bearer ${await token()}` })
      : token
        ? { ...base, authorization: `Bearer ${token}` }
        : base;
  return hc(o.baseUrl.replace(/\/$/, ""), { headers, ...(o.fetch ? { fetch: o.fetch } : {}) }) as unknown as Api;
}

/** An error answer: the wire envelope's code and message, with the HTTP status (0 when the server was unreachable). */
export class WardenError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: unknown;
  constructor(status: number, code: string, message: string, requestId?: string, details?: unknown) {
    super(message);
    this.name = "WardenError";
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.details = details;
  }
}

type Answer = { ok: boolean; status: number; json(): Promise<unknown>; headers: Headers };
/** The success body type of an hc call. */
type OkBody<R> = R extends { ok: true; json(): Promise<infer B> } ? B : never;

/** Awaits an hc call: the success body, or a WardenError carrying the envelope (unreachable server → status 0). */
export async function unwrap<R extends Answer>(call: Promise<R>): Promise<OkBody<R>> {
  let res: R;
  try {
    res = await call;
  } catch (e) {
    throw new WardenError(0, "unavailable", `server unreachable: ${(e as Error).message}`);
  }
  if (res.status === 204) return undefined as OkBody<R>;
  const body = (await res.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string; request_id?: string; details?: unknown } }
    | undefined;
  if (!res.ok) {
    const e = body?.error;
    throw new WardenError(
      res.status,
      e?.code ?? `http_${res.status}`,
      e?.message ?? `HTTP ${res.status}`,
      e?.request_id,
      e?.details,
    );
  }
  return body as OkBody<R>;
}
