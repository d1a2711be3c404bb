// One definition of a run's budget standing (used, caps, breached), shown the same on the trace, the overview, Slack and the CLI.

/** A run's caps: per step (each attempt's tokens in and out) and, when set, for the whole run. */
export type BudgetCaps = { input_tokens: number; output_tokens: number; total_tokens: number | null };

/**
 * Where a run stands: `used` is every attempt's tokens added up; `breached` means at least one step went over a budget
 * (Warden refused it over the run total, a per-step cap or an order's cost cap, or the worker reported
 * `budget_exceeded`) — the only sense in which a budget is broken, since per-step caps bound each step, never the
 * run's sum.
 */
export type BudgetStanding = {
  used_in: number;
  used_out: number;
  used_total: number;
  total_cap: number | null;
  breaches: number;
  breached: boolean;
  /** one line: "470 tokens (300 in · 170 out) of 2000 · per step ≤ 800 in, ≤ 200 out · 1 step refused over budget" */
  text: string;
};

export function budgetStanding(
  caps: BudgetCaps | null,
  used: { tokens_in: number; tokens_out: number },
  breaches: number,
): BudgetStanding {
  const used_total = used.tokens_in + used.tokens_out;
  const total_cap = caps?.total_tokens ?? null;
  const parts = [
    `${used_total} tokens (${used.tokens_in} in · ${used.tokens_out} out)${total_cap === null ? "" : ` of ${total_cap}`}`,
    ...(caps ? [`per step ≤ ${caps.input_tokens} in, ≤ ${caps.output_tokens} out`] : []),
    breaches > 0 ? `${breaches} step${breaches === 1 ? "" : "s"} refused over budget` : "within budget",
  ];
  return {
    used_in: used.tokens_in,
    used_out: used.tokens_out,
    used_total,
    total_cap,
    breaches,
    breached: breaches > 0,
    text: parts.join(" · "),
  };
}
