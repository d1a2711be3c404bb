// Requests as an API client sends them and responses read once: shared by the workerd and Node test helpers.

export type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string> };

/** A request as an API client sends it: bearer token, JSON body (strings pass through as written). */
export function apiRequest(method: string, path: string, opts: CallOptions = {}): Request {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`https://warden.test${path}`, { method, headers, body });
}

/** Reads a response once: status, headers, raw text and the parsed JSON (undefined when it is not JSON). */
export async function readResponse(res: Response) {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}
