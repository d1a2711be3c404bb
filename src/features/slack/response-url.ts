// Which response_urls Warden calls: Slack's hooks host over HTTPS, or the configured Slack API's origin (tests).

/**
 * Whether Warden may call a payload's response_url: Slack's own hooks host over HTTPS, or the configured Slack API's
 * origin (the loopback stand-in in tests). Anything else would make Warden fetch a URL a payload names.
 */
export function responseUrlAllowed(responseUrl: string, apiBase: string): boolean {
  let url: URL;
  try {
    url = new URL(responseUrl);
  } catch {
    return false;
  }
  if (url.protocol === "https:" && url.host === "hooks.slack.com" && url.pathname.startsWith("/")) return true;
  try {
    return url.origin === new URL(apiBase).origin;
  } catch {
    return false;
  }
}

/** The host of a URL for the audit (the URL itself may carry a token). */
export const hostOf = (u: string) => {
  try {
    return new URL(u).host;
  } catch {
    return "(not a URL)";
  }
};
