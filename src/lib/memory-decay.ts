// Importance decay arithmetic shared by every memory home (D1 and the team object): half-life per class.
import { DAY_MS } from "./time";

/** the class's half-life in days; null or undefined: it never decays */
export const halfLifeOf = (rules: { halfLifeDays: Record<string, number | null> }, cls: string) =>
  cls in rules.halfLifeDays ? rules.halfLifeDays[cls] : null;

/** `raw` decayed over `elapsed` ms at half-life `hl` days (unchanged when it never decays or no time passed) */
export const decayed = (raw: number, hl: number | null | undefined, elapsed: number) =>
  hl === null || hl === undefined || !(elapsed > 0) ? raw : raw * 0.5 ** (elapsed / (hl * DAY_MS));
