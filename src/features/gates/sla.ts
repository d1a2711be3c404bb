// Gate SLAs (pure): a team's SLA settings, the severity of a gate, when its acknowledgement and resolution fall due,
// and whether it breached either — all from `now` and the team's settings (seed 003 HITL board defaults).
import { z } from "zod";
import {
  addBusinessMs,
  type BusinessHours,
  isBusinessTime,
  isTimeZone,
  minutesToMs,
  nextBusinessDayEnd,
} from "./business-hours";

export const SEVERITIES = ["sev2", "sev3"] as const;
export type Severity = (typeof SEVERITIES)[number];

const Clock = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "a local time HH:MM (00:00–24:00)");
const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** How long a gate of one severity may stay open: wall-clock minutes, business minutes, or the next business day. */
export const ResolveSla = z.union([
  z.strictObject({ minutes: z.int().min(1).max(10_080).describe("wall-clock minutes after opening") }),
  z.strictObject({
    business_minutes: z.int().min(1).max(10_080).describe("minutes counted inside business hours only"),
  }),
  z.strictObject({
    next_business_day: z.literal(true).describe("by the close of the first business day after the opening's date"),
  }),
]);
export type ResolveSla = z.infer<typeof ResolveSla>;

export const GateSlaSettings = z
  .strictObject({
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, "an IANA time zone such as Europe/Berlin or America/New_York")
      .describe("IANA time zone of the business hours"),
    business_hours: z
      .strictObject({
        days: z.array(z.int().min(1).max(7)).min(1).max(7).describe("ISO weekdays, 1 = Monday … 7 = Sunday"),
        start: Clock,
        end: Clock,
      })
      .refine((b) => minuteOf(b.end) - minuteOf(b.start) >= 60, {
        message: "business hours close at least an hour after they open, the same day",
        path: ["end"],
      }),
    ack_minutes: z.strictObject({
      business: z.int().min(1).max(1440).describe("minutes to acknowledge a gate opened in business hours"),
      off_hours: z.int().min(1).max(1440).describe("minutes to acknowledge a gate opened outside them"),
    }),
    resolve: z.strictObject({ sev2: ResolveSla, sev3: ResolveSla }),
  })
  .meta({
    id: "GateSlaSettings",
    example: {
      time_zone: "Europe/Berlin",
      business_hours: { days: [1, 2, 3, 4, 5], start: "08:00", end: "18:00" },
      ack_minutes: { business: 5, off_hours: 30 },
      resolve: { sev2: { minutes: 60 }, sev3: { next_business_day: true } },
    },
  });
export type GateSlaSettings = z.infer<typeof GateSlaSettings>;

/** The seed's proposal (003 HITL board): acknowledge in 5 min business / 30 min off-hours; resolve Sev-2 in 60 min,
 * Sev-3 by the next business day; Monday–Friday 09:00–17:00 UTC until the team sets its own. */
export const DEFAULT_GATE_SLA: GateSlaSettings = {
  time_zone: "UTC",
  business_hours: { days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00" },
  ack_minutes: { business: 5, off_hours: 30 },
  resolve: { sev2: { minutes: 60 }, sev3: { next_business_day: true } },
};

export const businessHoursOf = (s: GateSlaSettings): BusinessHours => ({
  time_zone: s.time_zone,
  days: s.business_hours.days,
  start_minute: minuteOf(s.business_hours.start),
  end_minute: minuteOf(s.business_hours.end),
});

/** When a gate opened at `openedAt` must be acknowledged: the business or off-hours SLA, by when it opened. */
export function ackDueAt(openedAt: number, s: GateSlaSettings): number {
  const inHours = isBusinessTime(openedAt, businessHoursOf(s));
  return openedAt + minutesToMs(inHours ? s.ack_minutes.business : s.ack_minutes.off_hours);
}

/** When a gate of this severity opened at `openedAt` must be decided. */
export function resolveDueAt(openedAt: number, severity: Severity, s: GateSlaSettings): number {
  const sla = s.resolve[severity];
  if ("minutes" in sla) return openedAt + minutesToMs(sla.minutes);
  if ("business_minutes" in sla) return addBusinessMs(openedAt, minutesToMs(sla.business_minutes), businessHoursOf(s));
  return nextBusinessDayEnd(openedAt, businessHoursOf(s));
}

/** Gate kinds that never wait for a person: no SLA applies to them. */
const MACHINE_KINDS = new Set(["auto", "soft", "deny"]);
/** True when a gate of this kind waits for a person (hard gates and dead-letter reviews). */
export const slaApplies = (kind: string) => !MACHINE_KINDS.has(kind);

/**
 * A gate's severity: the first of the team's rules for its policy key that gives one, else sev3 for dead-letter
 * reviews and sev2 for everything else a person must decide.
 */
export function severityOf(
  rules: readonly { policy_key: string; severity?: Severity }[],
  g: { policy_key: string; kind: string },
): Severity {
  const ruled = rules.find((r) => r.policy_key === g.policy_key && r.severity !== undefined)?.severity;
  if (ruled) return ruled;
  return g.kind === "dead_letter_review" || g.policy_key.startsWith("dead_letter") ? "sev3" : "sev2";
}

/** The facts of a gate its SLA needs (the D1 gate index row has them). */
export type SlaGate = {
  kind: string;
  policy_key: string;
  opened_at: number;
  acked_at: number | null;
  decided_at: number | null;
};

export type GateSlaState = {
  severity: Severity;
  ack_due_at: number;
  resolve_due_at: number;
  /** when someone first responded: the acknowledgement, or the decision when that came first; null while neither */
  responded_at: number | null;
  /** responded after the ack SLA, or still silent past it at `now` */
  ack_breached: boolean;
  /** decided after the resolve SLA, or still open past it at `now` */
  resolve_breached: boolean;
};

/** A gate's SLA at `now` (null for gates no person must decide). */
export function gateSla(g: SlaGate, severity: Severity, s: GateSlaSettings, now: number): GateSlaState | null {
  if (!slaApplies(g.kind)) return null;
  const ack_due_at = ackDueAt(g.opened_at, s);
  const resolve_due_at = resolveDueAt(g.opened_at, severity, s);
  const responses = [g.acked_at, g.decided_at].filter((t): t is number => t !== null);
  const responded_at = responses.length ? Math.min(...responses) : null;
  return {
    severity,
    ack_due_at,
    resolve_due_at,
    responded_at,
    ack_breached: (responded_at ?? now) > ack_due_at,
    resolve_breached: (g.decided_at ?? now) > resolve_due_at,
  };
}

/** A gate's SLA state with the facts it was measured on. */
export type MeasuredGate<G extends SlaGate> = { gate: G; sla: GateSlaState };

/** The SLA of each gate a person must decide, each with the settings and severity of its team. */
export function measureGates<G extends SlaGate>(
  gates: readonly G[],
  severity: (g: G) => Severity,
  s: GateSlaSettings,
  now: number,
): MeasuredGate<G>[] {
  return gates.flatMap((gate) => {
    const sla = gateSla(gate, severity(gate), s, now);
    return sla ? [{ gate, sla }] : [];
  });
}

/** The window's SLA figures: breaches of each SLA and how long the first response took (sorted, ms). */
export function slaFigures(measured: readonly MeasuredGate<SlaGate>[]) {
  return {
    ack_breaches: measured.filter((m) => m.sla.ack_breached).length,
    resolve_breaches: measured.filter((m) => m.sla.resolve_breached).length,
    ack_latencies_ms: measured
      // clocks of different isolates may differ by a little: a response never took less than nothing
      .flatMap((m) => (m.sla.responded_at === null ? [] : [Math.max(0, m.sla.responded_at - m.gate.opened_at)]))
      .sort((a, b) => a - b),
  };
}

/**
 * The breaches of still-open gates at `now` worth an alert: an acknowledgement overdue (nobody responded), or the
 * resolve SLA passed (acknowledged or not: the ladder that went quiet on the acknowledgement speaks again).
 */
export function openBreaches<G extends SlaGate>(measured: readonly MeasuredGate<G>[]) {
  return measured.flatMap(({ gate, sla }) => [
    ...(sla.ack_breached && sla.responded_at === null ? [{ gate, sla, breach: "ack" as const }] : []),
    ...(sla.resolve_breached && gate.decided_at === null ? [{ gate, sla, breach: "resolve" as const }] : []),
  ]);
}

/** Whether an escalation of this gate still pings at `at`: nobody acknowledged it, or its resolve SLA is due. */
export const escalationPings = (acked: boolean, resolveDueAt: number | null, at: number) =>
  !acked || (resolveDueAt !== null && at >= resolveDueAt);
