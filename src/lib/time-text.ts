// Times people can read: ISO without milliseconds in a given zone, durations ("1m 12s") and relative times ("in 1m 12s").

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * `2026-11-27T13:41:09+01:00` (`Z` at offset 0): the instant at a zone offset in minutes east of UTC, to the second.
 * The CLI passes the machine's offset for that instant; pages and cards use UTC unless told otherwise.
 */
export function isoSeconds(ms: number, offsetMinutes = 0): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes > 0 ? "+" : "-";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "42s", "3m 20s", "2h 5m", "3d 1h": a duration in its two largest units (rounded to the second). */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** "in 1m 12s", "3m 20s ago", or "now" (within a second): `at` seen from `now`. */
export function relativeText(at: number, now: number): string {
  const d = at - now;
  if (Math.abs(d) < 1000) return "now";
  return d > 0 ? `in ${durationText(d)}` : `${durationText(-d)} ago`;
}

/**
 * A Slack date token: Slack shows it in each reader's own zone ("Nov 27th, 13:41:09") and a relative form
 * ("in 2 minutes"); clients that cannot render it show the UTC fallback.
 */
export function slackDate(ms: number): string {
  return `<!date^${Math.floor(ms / 1000)}^{date_short} {time_secs} ({ago})|${isoSeconds(ms)}>`;
}
