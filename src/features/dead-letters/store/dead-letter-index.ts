// DeadLetterIndex over D1 with drizzle: the dead_letter rows (written by run-record.ts) joined to their review gate.
import { and, asc, eq, gte, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { deadLetters, gates } from "../../runs/store/tables";
import type { DeadLetterIndex, DeadLetterRow } from "./dead-letter-index-port";

const columns = {
  dead_letter_id: deadLetters.id,
  run_id: deadLetters.runId,
  op_id: deadLetters.opId,
  reason_code: deadLetters.reasonCode,
  payload: deadLetters.payload,
  created_at: deadLetters.createdAt,
  resolved_at: deadLetters.resolvedAt,
  resolver: deadLetters.resolver,
  gate_id: gates.gateId,
  gate_status: gates.status,
};

type Joined = { [K in keyof typeof columns]: unknown };

function toRow(r: Joined): DeadLetterRow {
  const payload = r.payload;
  return {
    dead_letter_id: r.dead_letter_id as string,
    run_id: r.run_id as string,
    op_id: r.op_id as string,
    reason_code: r.reason_code as string,
    payload: typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : null,
    created_at: Number(r.created_at),
    resolved_at: r.resolved_at === null ? null : Number(r.resolved_at),
    resolver: (r.resolver as string | null) ?? null,
    review: r.gate_id ? { gate_id: r.gate_id as string, status: r.gate_status as string } : null,
  };
}

export function createD1DeadLetterIndex(db: DrizzleD1Database): DeadLetterIndex {
  const joined = (reviewKey: string, where: SQL | undefined) =>
    db
      .select(columns)
      .from(deadLetters)
      .leftJoin(
        gates,
        and(
          eq(gates.teamId, deadLetters.teamId),
          eq(gates.runId, deadLetters.runId),
          eq(gates.opId, deadLetters.opId),
          eq(gates.policyKey, reviewKey),
        ),
      )
      .where(where);
  return {
    async list(teamId, q) {
      const where: (SQL | undefined)[] = [eq(deadLetters.teamId, teamId)];
      if (q.status === "open") where.push(isNull(deadLetters.resolvedAt));
      if (q.status === "resolved") where.push(isNotNull(deadLetters.resolvedAt));
      if (q.reason !== undefined)
        where.push(
          or(
            eq(deadLetters.reasonCode, q.reason),
            sql`json_extract(${deadLetters.payload}, '$.failure_class') = ${q.reason}`,
          ),
        );
      if (q.since !== undefined) where.push(gte(deadLetters.createdAt, q.since));
      if (q.runId !== undefined) where.push(eq(deadLetters.runId, q.runId));
      const rows = await joined(q.reviewKey, and(...where))
        .orderBy(asc(deadLetters.createdAt), asc(deadLetters.id))
        .limit(q.limit);
      return rows.map(toRow);
    },

    async get(teamId, id, reviewKey) {
      const rows = await joined(reviewKey, and(eq(deadLetters.teamId, teamId), eq(deadLetters.id, id))).limit(1);
      return rows[0] ? toRow(rows[0]) : null;
    },
  };
}
