// Port of the one outbound Slack client (Web API methods and response_url posts), src/adapters/slack/web-api.ts.

export type SlackApiResult =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; retryAfterS: number | null; status: number; error: string };

/** The one outbound Slack client: Web API methods (bot token) and response_url posts. */
export interface SlackApi {
  call(
    method: "chat.postMessage" | "chat.update" | "views.open" | "chat.getPermalink",
    token: string,
    body: unknown,
  ): Promise<SlackApiResult>;
  respond(responseUrl: string, body: unknown): Promise<SlackApiResult>;
}
