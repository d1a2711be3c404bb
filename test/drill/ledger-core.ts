// The kill test's pure verdict: every acknowledged decision in the decision log once, every acknowledged memory once.

export type LedgerObservation = {
  /** decision_id → when POST /v1/policy/decide answered it (ms) */
  ackedDecisions: Map<string, number>;
  /** decision_id → how many times the team's R2 objects hold it (raw lines; readers take each id once) */
  logged: Map<string, number>;
  /** the decisions the log's reader counts for the team (POST /v1/policy/replay `total`) */
  readerTotal: number;
  /** every acknowledged memory write: its namespace (one per write) and the id the server answered */
  ackedMemories: { namespace: string; id: string }[];
  /** namespace → the ids POST /v1/memory/query finds there */
  foundMemories: Map<string, string[]>;
};

export type LedgerFigures = {
  decisionsAcked: number;
  decisionsLogged: number;
  /** lines beyond the first for a decision_id (each one is a problem: a flush retried writes the same object) */
  repeatedLines: number;
  memoriesAcked: number;
  /** acknowledged decisions the objects do not hold (each one is a problem: no window is tolerated) */
  decisionsLost: number;
};

/**
 * The acknowledged decisions the objects do not hold. Decide answers once the decision is a row of its team object's
 * journal (SQLite, durable before the answer), so a kill of the local runtime loses none: every one is a loss.
 */
function missingDecisions(o: LedgerObservation): string[] {
  const lost: string[] = [];
  for (const [id, at] of o.ackedDecisions)
    if (!o.logged.has(id)) lost.push(`${id} (acknowledged at ${new Date(at).toISOString()})`);
  return lost;
}

/** One line per problem (empty: nothing acknowledged was lost and nothing was logged or counted twice). */
export function ledgerProblems(o: LedgerObservation): string[] {
  const problems = missingDecisions(o).map((d) => `lost decision: ${d}`);
  for (const [id, n] of o.logged) if (n > 1) problems.push(`decision ${id} is in the log ${n} times`);
  if (o.readerTotal !== o.logged.size)
    problems.push(`decision log reader counts ${o.readerTotal}, the objects hold ${o.logged.size} distinct decisions`);
  for (const m of o.ackedMemories) {
    const found = o.foundMemories.get(m.namespace) ?? [];
    if (!found.includes(m.id)) problems.push(`lost memory: ${m.id} in ${m.namespace}`);
    else if (found.length > 1) problems.push(`memory written ${found.length} times in ${m.namespace}: ${found}`);
  }
  return problems;
}

export function ledgerFigures(o: LedgerObservation): LedgerFigures {
  let repeatedLines = 0;
  for (const n of o.logged.values()) repeatedLines += n - 1;
  return {
    decisionsAcked: o.ackedDecisions.size,
    decisionsLogged: o.logged.size,
    repeatedLines,
    memoriesAcked: o.ackedMemories.length,
    decisionsLost: missingDecisions(o).length,
  };
}
