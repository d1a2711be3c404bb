// The one outbound Slack client (fetch): Web API methods under a configurable base URL, and response_url posts.
import type { SlackApi, SlackApiResult } from "../../ports/slack";

export const SLACK_DEFAULT_API_BASE_URL = "https://slack.com/api/";

/**
 * No retries in here: a 429 or 5xx comes back as a value with its Retry-After, and the SLACK_OUTBOX consumer retries
 * the queue message with that delay (a Worker must not sleep through Slack's rate limit).
 */
export function createSlackWebApi(baseUrl: string, fetcher: typeof fetch = fetch, timeoutMs = 10_000): SlackApi {
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  const send = async (url: string, headers: Record<string, string>, body: unknown): Promise<SlackApiResult> => {
    let res: Response;
    try {
      res = await fetcher(url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      return { ok: false, retryAfterS: null, status: 0, error: `network: ${String(e)}` };
    }
    const text = await res.text();
    if (res.status === 429 || res.status >= 500) {
      const header = res.headers.get("retry-after");
      const ra = header === null || header.trim() === "" ? Number.NaN : Number(header);
      return {
        ok: false,
        retryAfterS: Number.isFinite(ra) && ra >= 0 ? Math.ceil(ra) : null,
        status: res.status,
        error: res.status === 429 ? "ratelimited" : `http_${res.status}`,
      };
    }
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // response_url answers "ok" as plain text
      json = { ok: res.ok, text };
    }
    if (!res.ok || json.ok === false) {
      return { ok: false, retryAfterS: null, status: res.status, error: String(json.error ?? `http_${res.status}`) };
    }
    return { ok: true, body: json };
  };
  return {
    call: (method, token, body) => send(`${base}${method}`, { authorization: `Bearer ${token}` }, body),
    respond: (responseUrl, body) => send(responseUrl, {}, body),
  };
}
