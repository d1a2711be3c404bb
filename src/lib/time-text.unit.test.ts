// Times people can read (pure): ISO to the second with the zone, durations, relative times, Slack date tokens.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { durationText, isoSeconds, relativeText, slackDate } from "./time-text";

const T = Date.UTC(2026, 10, 27, 12, 41, 9, 876);

describe("isoSeconds", () => {
  it("drops milliseconds and names the zone", () => {
    expect(isoSeconds(T)).toBe("2026-11-27T12:41:09Z");
    expect(isoSeconds(T, 60)).toBe("2026-11-27T13:41:09+01:00");
    expect(isoSeconds(T, -330)).toBe("2026-11-27T07:11:09-05:30");
  });

  it("names the same instant whatever the offset", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: -720, max: 840 }), (ms, off) => {
        const text = isoSeconds(ms, off).replace(/Z$/, "+00:00");
        expect(Date.parse(text)).toBe(Math.floor(ms / 1000) * 1000);
      }),
    );
  });
});

describe("relativeText and durationText", () => {
  it("says how far ahead or behind, in two units", () => {
    expect(relativeText(T + 72_000, T)).toBe("in 1m 12s");
    expect(relativeText(T - 200_000, T)).toBe("3m 20s ago");
    expect(relativeText(T + 400, T)).toBe("now");
    expect(durationText(2 * 3_600_000 + 5 * 60_000)).toBe("2h 5m");
    expect(durationText(3 * 86_400_000 + 3_600_000)).toBe("3d 1h");
  });
});

describe("slackDate", () => {
  it("is a Slack date token with the reader's zone and a relative form, and a UTC fallback", () => {
    expect(slackDate(T)).toBe(`<!date^${Math.floor(T / 1000)}^{date_short} {time_secs} ({ago})|2026-11-27T12:41:09Z>`);
  });
});
