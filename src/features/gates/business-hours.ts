// Business hours in a team's time zone (pure; zones through Intl): whether an instant is inside them, adding business
// time, the business time between two instants, and the end of the next business day — DST handled by the zone data.

/** A team's working week: ISO weekdays (1 = Monday … 7 = Sunday) and the local opening and closing minute of day. */
export type BusinessHours = { time_zone: string; days: readonly number[]; start_minute: number; end_minute: number };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const HALF_DAY_MS = DAY_MS / 2;
/** Days walked at most to find business time (validated settings open at least one hour a week, ≤ 10,080 min asked). */
const MAX_DAYS = 2000;

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** A local calendar date (month 1–12). */
export type LocalDate = { y: number; m: number; d: number };

/** The local wall-clock fields of an instant in a zone. */
export function localParts(t: number, timeZone: string): LocalDate & { hh: number; mm: number; ss: number } {
  const p: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(new Date(t)))
    if (part.type !== "literal") p[part.type] = Number(part.value);
  return { y: p.year ?? 0, m: p.month ?? 0, d: p.day ?? 0, hh: p.hour ?? 0, mm: p.minute ?? 0, ss: p.second ?? 0 };
}

/** The zone's offset from UTC at instant t, in ms (local = UTC + offset). */
function offsetAt(t: number, timeZone: string): number {
  const l = localParts(t, timeZone);
  return Date.UTC(l.y, l.m - 1, l.d, l.hh, l.mm, l.ss) - Math.floor(t / 1000) * 1000;
}

/**
 * The instant a local date's minute of day names. A minute skipped by a DST change maps past the gap; a minute
 * that occurs twice maps to its first occurrence.
 */
export function localToInstant(date: LocalDate, minuteOfDay: number, timeZone: string): number {
  const wall = Date.UTC(date.y, date.m - 1, date.d, 0, minuteOfDay);
  // the offsets in force half a day either side: one of them is the minute's own, unless DST skipped it
  const candidates = [wall - offsetAt(wall - HALF_DAY_MS, timeZone), wall - offsetAt(wall + HALF_DAY_MS, timeZone)];
  const [first, second] = candidates.sort((a, b) => a - b) as [number, number];
  if (first + offsetAt(first, timeZone) === wall) return first;
  if (second + offsetAt(second, timeZone) === wall) return second;
  return second;
}

const dateOf = (t: number, timeZone: string): LocalDate => {
  const { y, m, d } = localParts(t, timeZone);
  return { y, m, d };
};
const nextDate = ({ y, m, d }: LocalDate): LocalDate => {
  const n = new Date(Date.UTC(y, m - 1, d + 1));
  return { y: n.getUTCFullYear(), m: n.getUTCMonth() + 1, d: n.getUTCDate() };
};
const dayNumber = ({ y, m, d }: LocalDate) => Date.UTC(y, m - 1, d) / DAY_MS;
/** ISO weekday of a local date: 1 = Monday … 7 = Sunday. */
const isoWeekday = ({ y, m, d }: LocalDate) => ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;

/** The business window [open, close) of a local date as instants; null on a day off. */
export function windowOf(date: LocalDate, h: BusinessHours): { open: number; close: number } | null {
  if (!h.days.includes(isoWeekday(date))) return null;
  const open = localToInstant(date, h.start_minute, h.time_zone);
  const close =
    h.end_minute >= 1440
      ? localToInstant(nextDate(date), 0, h.time_zone)
      : localToInstant(date, h.end_minute, h.time_zone);
  return close > open ? { open, close } : null;
}

/** True when t falls inside the team's business hours. */
export function isBusinessTime(t: number, h: BusinessHours): boolean {
  const w = windowOf(dateOf(t, h.time_zone), h);
  return w !== null && t >= w.open && t < w.close;
}

/**
 * The instant at which `ms` of business time has passed since t (time outside business hours does not count); t
 * itself when ms ≤ 0. Ends exactly at a window's close when the time runs out there.
 */
export function addBusinessMs(t: number, ms: number, h: BusinessHours): number {
  if (ms <= 0) return t;
  let left = ms;
  let date = dateOf(t, h.time_zone);
  for (let i = 0; i < MAX_DAYS; i++, date = nextDate(date)) {
    const w = windowOf(date, h);
    if (w === null || t >= w.close) continue;
    const from = Math.max(t, w.open);
    if (left <= w.close - from) return from + left;
    left -= w.close - from;
  }
  return t + MAX_DAYS * DAY_MS;
}

/** The business time between two instants (0 when b ≤ a). */
export function businessMsBetween(a: number, b: number, h: BusinessHours): number {
  if (b <= a) return 0;
  const last = dayNumber(dateOf(b, h.time_zone));
  let total = 0;
  for (let date = dateOf(a, h.time_zone); dayNumber(date) <= last; date = nextDate(date)) {
    const w = windowOf(date, h);
    if (w !== null) total += Math.max(0, Math.min(w.close, b) - Math.max(w.open, a));
  }
  return total;
}

/** The close of the first business day after t's local date ("by the next business day"). */
export function nextBusinessDayEnd(t: number, h: BusinessHours): number {
  let date = nextDate(dateOf(t, h.time_zone));
  for (let i = 0; i < MAX_DAYS; i++, date = nextDate(date)) {
    const w = windowOf(date, h);
    if (w !== null) return w.close;
  }
  return t + MAX_DAYS * DAY_MS;
}

export const minutesToMs = (minutes: number) => minutes * MINUTE_MS;
