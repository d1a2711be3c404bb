// The slack feature's pure entry: the thresholds of its delivery health and of Slack's response_url limit, and (types)
// its store ports, which gates (outage, Slack deploy target), messages and the composition root read.

/** Failed outbox deliveries in a row (no success between) after which a team counts as in an approval outage (RB-06). */
export const SLACK_OUTAGE_AFTER_FAILURES = 5;

/** Slack's documented limit on a response_url: used at most 5 times, within 30 minutes of being issued. */
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_WINDOW_MS = 30 * 60_000;

export type * from "./store/slack-store-port";
