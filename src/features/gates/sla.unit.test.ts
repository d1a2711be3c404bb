// Gate SLAs and business hours (pure): due times never before opening, business-time arithmetic across days, weekends
// and DST changes (fast-check), and the seed's defaults on fixed dates.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addBusinessMs,
  type BusinessHours,
  businessMsBetween,
  isBusinessTime,
  localParts,
  localToInstant,
  nextBusinessDayEnd,
} from "./business-hours";
import { ackDueAt, DEFAULT_GATE_SLA, GateSlaSettings, gateSla, resolveDueAt, SEVERITIES, severityOf } from "./sla";

// zones with and without DST, north and south, whole and odd offsets; their DST changes happen at night (01:00–03:45),
// before the earliest opening the generator picks
const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/Los_Angeles",
  "Australia/Sydney",
  "Asia/Kolkata",
  "Pacific/Chatham",
];
const MIN = 60_000;
const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });
const hours: fc.Arbitrary<BusinessHours> = fc
  .record({
    time_zone: fc.constantFrom(...ZONES),
    days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
    start_minute: fc.integer({ min: 4 * 60, max: 20 * 60 }),
    length: fc.integer({ min: 60, max: 20 * 60 }),
  })
  .map(({ length, ...h }) => ({ ...h, end_minute: Math.min(1440, h.start_minute + length) }));
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
const settingsOf = (h: BusinessHours, ack: [number, number], resolve: GateSlaSettings["resolve"]): GateSlaSettings => ({
  time_zone: h.time_zone,
  business_hours: { days: [...h.days], start: hhmm(h.start_minute), end: hhmm(h.end_minute) },
  ack_minutes: { business: ack[0], off_hours: ack[1] },
  resolve,
});
const resolveSla = fc.oneof(
  fc.integer({ min: 1, max: 10_080 }).map((minutes) => ({ minutes })),
  fc.integer({ min: 1, max: 10_080 }).map((business_minutes) => ({ business_minutes })),
  fc.constant({ next_business_day: true as const }),
);
const settings = fc
  .tuple(hours, fc.integer({ min: 1, max: 1440 }), fc.integer({ min: 1, max: 1440 }), resolveSla, resolveSla)
  .map(([h, a, b, sev2, sev3]) => settingsOf(h, [a, b], { sev2, sev3 }));
const RUNS = { numRuns: 150 };

describe("business hours", () => {
  it("maps a local opening minute to an instant that reads back as that minute, DST or not", () => {
    fc.assert(
      fc.property(instant, hours, (t, h) => {
        const { y, m, d } = localParts(t, h.time_zone);
        const at = localToInstant({ y, m, d }, h.start_minute, h.time_zone);
        const back = localParts(at, h.time_zone);
        expect([back.y, back.m, back.d, back.hh * 60 + back.mm]).toEqual([y, m, d, h.start_minute]);
      }),
      RUNS,
    );
  });

  it("adds business time so that exactly that much business time lies between start and result", () => {
    fc.assert(
      fc.property(instant, hours, fc.integer({ min: 0, max: 10_080 }), (t, h, minutes) => {
        const due = addBusinessMs(t, minutes * MIN, h);
        expect(due).toBeGreaterThanOrEqual(t);
        expect(businessMsBetween(t, due, h)).toBe(minutes * MIN);
        // it ends inside business hours (or at a close), never in the night after it
        if (minutes > 0) expect(isBusinessTime(due - 1, h)).toBe(true);
      }),
      RUNS,
    );
  });

  it("adds business time in pieces the same as at once", () => {
    fc.assert(
      fc.property(
        instant,
        hours,
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        (t, h, a, b) => {
          expect(addBusinessMs(addBusinessMs(t, a * MIN, h), b * MIN, h)).toBe(addBusinessMs(t, (a + b) * MIN, h));
        },
      ),
      RUNS,
    );
  });

  it("ends the next business day at its local close, on a business weekday after the opening's date", () => {
    fc.assert(
      fc.property(instant, hours, (t, h) => {
        const end = nextBusinessDayEnd(t, h);
        expect(end).toBeGreaterThan(t);
        const close = localParts(end - 1, h.time_zone);
        expect(close.hh * 60 + close.mm + 1).toBe(h.end_minute);
        const opened = localParts(t, h.time_zone);
        expect(Date.UTC(close.y, close.m - 1, close.d)).toBeGreaterThan(Date.UTC(opened.y, opened.m - 1, opened.d));
        const weekday = ((new Date(Date.UTC(close.y, close.m - 1, close.d)).getUTCDay() + 6) % 7) + 1;
        expect(h.days).toContain(weekday);
      }),
      RUNS,
    );
  });

  it("counts a business day across the spring DST change in Berlin (Friday 16:00 CET + 8 h → Monday 16:00 CEST)", () => {
    const h: BusinessHours = { time_zone: "Europe/Berlin", days: [1, 2, 3, 4, 5], start_minute: 540, end_minute: 1020 };
    const fridayFour = Date.UTC(2026, 2, 27, 15); // 16:00 CET (UTC+1)
    expect(addBusinessMs(fridayFour, 8 * 60 * MIN, h)).toBe(Date.UTC(2026, 2, 30, 14)); // 16:00 CEST (UTC+2)
    expect(businessMsBetween(fridayFour, Date.UTC(2026, 2, 30, 14), h)).toBe(8 * 60 * MIN);
  });

  it("keeps 17:00 local as the close across New York's autumn change (EDT Friday, EST Monday)", () => {
    const h: BusinessHours = {
      time_zone: "America/New_York",
      days: [1, 2, 3, 4, 5],
      start_minute: 540,
      end_minute: 1020,
    };
    expect(nextBusinessDayEnd(Date.UTC(2026, 9, 30, 14), h)).toBe(Date.UTC(2026, 10, 2, 22)); // Mon 17:00 EST
  });
});

describe("gate SLA", () => {
  it("never falls due before the gate opened, for any settings, zone and severity", () => {
    fc.assert(
      fc.property(instant, settings, fc.constantFrom(...SEVERITIES), (opened, s, severity) => {
        expect(GateSlaSettings.safeParse(s).success).toBe(true);
        expect(ackDueAt(opened, s)).toBeGreaterThan(opened);
        expect(resolveDueAt(opened, severity, s)).toBeGreaterThan(opened);
      }),
      RUNS,
    );
  });

  it("gives the seed's defaults: 5 min in business hours, 30 off-hours, Sev-2 in 60 min, Sev-3 next business day", () => {
    const tuesdayTen = Date.UTC(2026, 10, 24, 10);
    const saturdayTen = Date.UTC(2026, 10, 28, 10);
    const fridayTen = Date.UTC(2026, 10, 27, 10);
    expect(ackDueAt(tuesdayTen, DEFAULT_GATE_SLA)).toBe(tuesdayTen + 5 * MIN);
    expect(ackDueAt(saturdayTen, DEFAULT_GATE_SLA)).toBe(saturdayTen + 30 * MIN);
    expect(ackDueAt(Date.UTC(2026, 10, 24, 17), DEFAULT_GATE_SLA)).toBe(Date.UTC(2026, 10, 24, 17) + 30 * MIN);
    expect(resolveDueAt(tuesdayTen, "sev2", DEFAULT_GATE_SLA)).toBe(tuesdayTen + 60 * MIN);
    expect(resolveDueAt(fridayTen, "sev3", DEFAULT_GATE_SLA)).toBe(Date.UTC(2026, 10, 30, 17));
    expect(resolveDueAt(saturdayTen, "sev3", DEFAULT_GATE_SLA)).toBe(Date.UTC(2026, 10, 30, 17));
  });

  it("counts the first response (acknowledgement or decision) against the ack SLA, and silence past it at now", () => {
    const opened = Date.UTC(2026, 10, 24, 10);
    const g = { kind: "hard", policy_key: "wrong_value", opened_at: opened, acked_at: null, decided_at: null };
    const at = (min: number) => opened + min * MIN;
    expect(gateSla(g, "sev2", DEFAULT_GATE_SLA, at(4))).toMatchObject({ ack_breached: false, resolve_breached: false });
    expect(gateSla(g, "sev2", DEFAULT_GATE_SLA, at(6))).toMatchObject({ ack_breached: true, resolve_breached: false });
    expect(gateSla({ ...g, acked_at: at(3) }, "sev2", DEFAULT_GATE_SLA, at(61))).toMatchObject({
      responded_at: at(3),
      ack_breached: false,
      resolve_breached: true,
    });
    expect(gateSla({ ...g, decided_at: at(2), acked_at: at(9) }, "sev2", DEFAULT_GATE_SLA, at(500))).toMatchObject({
      responded_at: at(2),
      ack_breached: false,
      resolve_breached: false,
    });
    expect(gateSla({ ...g, kind: "soft" }, "sev2", DEFAULT_GATE_SLA, at(500))).toBeNull();
  });

  it("takes a gate's severity from the first rule for its key that gives one, else sev3 for dead-letter reviews", () => {
    const rules = [
      { policy_key: "budget_increase" },
      { policy_key: "budget_increase", severity: "sev3" as const },
      { policy_key: "pii_detected", severity: "sev2" as const },
    ];
    expect(severityOf(rules, { policy_key: "budget_increase", kind: "hard" })).toBe("sev3");
    expect(severityOf(rules, { policy_key: "wrong_value", kind: "hard" })).toBe("sev2");
    expect(severityOf(rules, { policy_key: "dead_letter_reissue", kind: "hard" })).toBe("sev3");
    expect(severityOf(rules, { policy_key: "x", kind: "dead_letter_review" })).toBe("sev3");
  });

  it("refuses settings that cannot work: an unknown zone, hours shorter than one, no days", () => {
    const bad = (patch: Partial<GateSlaSettings>) => GateSlaSettings.safeParse({ ...DEFAULT_GATE_SLA, ...patch });
    expect(bad({ time_zone: "Mars/Olympus" }).success).toBe(false);
    expect(bad({ business_hours: { days: [1], start: "09:00", end: "09:30" } }).success).toBe(false);
    expect(bad({ business_hours: { days: [], start: "09:00", end: "17:00" } }).success).toBe(false);
    expect(bad({ business_hours: { days: [1], start: "9:00", end: "17:00" } }).success).toBe(false);
    expect(bad({}).success).toBe(true);
  });
});
