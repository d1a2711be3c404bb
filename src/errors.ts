// The error union every layer returns, and the one exhaustive mapper from it to the wire envelope.

export type Issue = { path: string; message: string };

export type AppError =
  | { code: "invalid_json"; message?: string }
  | { code: "validation_failed"; message?: string; issues: Issue[] }
  | { code: "unauthorized"; message: string }
  | { code: "forbidden"; message: string }
  | { code: "not_found"; message: string }
  | {
      code: "conflict";
      message: string /** a back-off refusal: when to try again (Retry-After) */;
      retryAfterSeconds?: number;
    }
  | { code: "payload_too_large"; limitBytes: number; message?: string }
  | { code: "unsupported_media_type"; message?: string }
  | { code: "redaction_required"; message?: string; ruleIds: string[] }
  | { code: "pii_detected"; message?: string; ruleIds: string[] }
  | { code: "rejected"; message: string; ruleIds?: string[] }
  | { code: "rate_limited"; retryAfterSeconds: number; message?: string; headers?: Record<string, string> }
  /** the team's work board is over its max_ready (RB-03): nothing was created; try again after Retry-After */
  | { code: "backpressure"; retryAfterSeconds: number; message: string }
  /** a promotion refused by evaluation_trend_regression_gate; details carry the comparison */
  | { code: "regression"; message: string; details: unknown }
  /** the platform dropped a call mid-flight (a run object reset); nothing of it was applied unless its op_id says so */
  | { code: "unavailable"; retryAfterSeconds: number; message: string };

export type ErrorCode = AppError["code"] | "internal";

export type WireError = {
  status: number;
  body: { error: { code: ErrorCode; message: string; request_id: string; details?: unknown } };
  headers: Record<string, string>;
};

/** Thrown by routes and middleware to short-circuit with an expected failure; onError maps it. */
export class AppFailure extends Error {
  constructor(readonly error: AppError) {
    super(error.code);
  }
}

export function toWire(error: AppError, requestId: string): WireError {
  const wire = (status: number, message: string, details?: unknown, headers: Record<string, string> = {}) => ({
    status,
    body: {
      error: { code: error.code, message, request_id: requestId, ...(details === undefined ? {} : { details }) },
    },
    headers,
  });
  switch (error.code) {
    case "invalid_json":
      return wire(400, error.message ?? "request body is not valid JSON");
    case "validation_failed":
      return wire(
        400,
        error.message ?? `request failed validation at ${error.issues.map((i) => i.path || "(root)").join(", ")}`,
        { issues: error.issues },
      );
    case "unauthorized":
      return wire(401, error.message, undefined, { "WWW-Authenticate": 'Bearer realm="warden"' });
    case "forbidden":
      return wire(403, error.message);
    case "not_found":
      return wire(404, error.message);
    case "conflict":
      return wire(
        409,
        error.message,
        undefined,
        error.retryAfterSeconds === undefined ? {} : { "Retry-After": String(error.retryAfterSeconds) },
      );
    case "payload_too_large":
      return wire(413, error.message ?? `request body exceeds ${error.limitBytes} bytes`);
    case "unsupported_media_type":
      return wire(415, error.message ?? "this route accepts application/json only");
    case "redaction_required":
      return wire(422, error.message ?? "content holds values that must not be stored", { rule_ids: error.ruleIds });
    case "pii_detected":
      return wire(422, error.message ?? "content holds personal data that must not be stored", {
        rule_ids: error.ruleIds,
      });
    case "rejected":
      return wire(422, error.message, error.ruleIds ? { rule_ids: error.ruleIds } : undefined);
    case "regression":
      return wire(409, error.message, error.details);
    case "rate_limited":
      return wire(429, error.message ?? "too many requests", undefined, {
        ...error.headers,
        "Retry-After": String(error.retryAfterSeconds),
      });
    case "backpressure":
      return wire(429, error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
    case "unavailable":
      return wire(503, error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
    default: {
      const unreachable: never = error;
      return unreachable;
    }
  }
}

/**
 * A throw that is the platform's, not ours: a Durable Object reset (eviction, code update, a broken input/output gate)
 * or an error the runtime marks retryable or overloaded. The caller retries after a second; the run's object is
 * rebuilt from storage and op_id keeps a retried write single. Anything else stays an internal error.
 */
export function platformFailure(e: unknown): AppError | null {
  if (typeof e !== "object" || e === null) return null;
  const flags = e as { durableObjectReset?: unknown; retryable?: unknown; overloaded?: unknown };
  if (flags.durableObjectReset !== true && flags.retryable !== true && flags.overloaded !== true) return null;
  return {
    code: "unavailable",
    retryAfterSeconds: 1,
    message: "the run's object was interrupted; retry the same request after Retry-After seconds",
  };
}

export function internalError(requestId: string): WireError {
  return {
    status: 500,
    body: { error: { code: "internal", message: "internal error", request_id: requestId } },
    headers: {},
  };
}

/** Routes only: the value of a use-case's Result, or the AppFailure that onError maps to the wire envelope. */
export function orFail<T>(result: { ok: true; value: T } | { ok: false; error: AppError }): T {
  if (result.ok) return result.value;
  throw new AppFailure(result.error);
}
