// A team's attempts in a D1 read: attempt rows carry no team_id, they are the team's through their run (runs.team_id);
// and what a group of attempts spent.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { attempts, runs } from "./tables";

/** A select from attempts (`.$dynamic()`) kept to the team's runs and to `where`; the caller orders and limits it. */
export function teamAttempts<Q extends SQLiteSelect>(select: Q, teamId: string, where: SQL | undefined) {
  return select.innerJoin(runs, eq(runs.runId, attempts.runId)).where(and(eq(runs.teamId, teamId), where));
}

/** The tokens a group of attempts spent (0, not null, over no attempt): one selection for metrics and the overview. */
export const attemptSpend = {
  tokensIn: sql<number>`coalesce(sum(${attempts.tokensIn}), 0)`,
  tokensOut: sql<number>`coalesce(sum(${attempts.tokensOut}), 0)`,
};
