// The one outbound Slack client (fetch): Web API methods under a configurable base URL, and response_url posts.
import type { SlackApi, SlackApiResult } from "../../ports/slack-api";
import type { SlackOAuthApi, SlackOAuthResult } from "../../ports/slack-oauth";

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

/**
 * oauth.v2.access under the same base URL: Slack takes this method form-encoded, with the app's client id and secret in
 * the body (no bearer token yet). Anything but a bot token for one workspace is an error value, never a throw.
 */
export function createSlackOAuthApi(baseUrl: string, fetcher: typeof fetch = fetch, timeoutMs = 10_000): SlackOAuthApi {
  const url = `${baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`}oauth.v2.access`;
  return {
    async oauthV2Access(exchange): Promise<SlackOAuthResult> {
      let res: Response;
      try {
        res = await fetcher(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(exchange).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        return { ok: false, status: 0, error: `network: ${String(e)}` };
      }
      let json: Record<string, unknown> = {};
      try {
        json = (await res.json()) as Record<string, unknown>;
      } catch {
        return { ok: false, status: res.status, error: `http_${res.status}` };
      }
      if (!res.ok || json.ok !== true)
        return { ok: false, status: res.status, error: String(json.error ?? `http_${res.status}`) };
      const team = json.team as { id?: unknown; name?: unknown } | null | undefined;
      const token = json.access_token;
      // an org-wide (Enterprise Grid) install has no team, and a user token is not what Warden posts with
      if (typeof team?.id !== "string" || typeof token !== "string" || json.token_type !== "bot")
        return { ok: false, status: res.status, error: "not_a_workspace_bot_install" };
      return {
        ok: true,
        access: {
          workspace_id: team.id,
          workspace_name: typeof team.name === "string" ? team.name : null,
          bot_token: token,
          scopes: typeof json.scope === "string" ? json.scope.split(",").filter(Boolean) : [],
        },
      };
    },
  };
}
