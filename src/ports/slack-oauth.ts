// Port of Slack's OAuth v2 code exchange (oauth.v2.access): a code from the install redirect → the workspace's bot token.

export type SlackOAuthExchange = {
  client_id: string;
  client_secret: string;
  code: string;
  /** the redirect_uri the authorize URL carried (Slack requires the same one) */
  redirect_uri: string;
};

/** What an install gives: the workspace (Slack's team), the bot token and the scopes granted. */
export type SlackOAuthAccess = {
  workspace_id: string;
  workspace_name: string | null;
  bot_token: string;
  scopes: string[];
};

export type SlackOAuthResult = { ok: true; access: SlackOAuthAccess } | { ok: false; status: number; error: string };

export interface SlackOAuthApi {
  oauthV2Access(exchange: SlackOAuthExchange): Promise<SlackOAuthResult>;
}
