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
  /** when the runtime was killed (ms) */
  kills: number[];
};

/**
 * How far before a kill an acknowledged decision may still sit on the EVENTS queue unconsumed. Decide answers once the
 * decision is on the queue, which Cloudflare Queues keep; the local runtime's queue holds messages in memory, so a
 * kill of the local runtime loses what its consumer had not yet written (its 1 s batch timeout plus the R2 put and D1
 * batch). `strict` refuses that loss too.
 */
export type DecisionRule = { bufferWindowMs: number; strict: boolean };

/** the local queue's batch timeout (wrangler.toml: 1 s) plus 2 s for the consumer's R2 put and D1 batch under load */
export const LOCAL_QUEUE_WINDOW_MS = 3_000;

export type LedgerFigures = {
  decisionsAcked: number;
  decisionsLogged: number;
  /** lines beyond the first for a decision_id (objects a failed attempt left behind; readers skip them) */
  repeatedLines: number;
  memoriesAcked: number;
  /** acknowledged decisions missing from the log that were acknowledged within the queue window before a kill */
  lostInBuffer: number;
};

/** The acknowledged decisions the objects do not hold, split by whether a kill came within the queue window. */
function missingDecisions(o: LedgerObservation, rule: DecisionRule) {
  const inBuffer: string[] = [];
  const lost: string[] = [];
  for (const [id, at] of o.ackedDecisions) {
    if (o.logged.has(id)) continue;
    const killedSoon = o.kills.some((k) => k >= at && k - at <= rule.bufferWindowMs);
    (killedSoon && !rule.strict ? inBuffer : lost).push(`${id} (acknowledged at ${new Date(at).toISOString()})`);
  }
  return { inBuffer, lost };
}

/** One line per problem (empty: nothing acknowledged was lost and nothing was counted twice). */
export function ledgerProblems(o: LedgerObservation, rule: DecisionRule): string[] {
  const problems = missingDecisions(o, rule).lost.map((d) => `lost decision: ${d}`);
  if (o.readerTotal !== o.logged.size)
    problems.push(`decision log reader counts ${o.readerTotal}, the objects hold ${o.logged.size} distinct decisions`);
  for (const m of o.ackedMemories) {
    const found = o.foundMemories.get(m.namespace) ?? [];
    if (!found.includes(m.id)) problems.push(`lost memory: ${m.id} in ${m.namespace}`);
    else if (found.length > 1) problems.push(`memory written ${found.length} times in ${m.namespace}: ${found}`);
  }
  return problems;
}

export function ledgerFigures(o: LedgerObservation, rule: DecisionRule): LedgerFigures {
  let repeatedLines = 0;
  for (const n of o.logged.values()) repeatedLines += n - 1;
  return {
    decisionsAcked: o.ackedDecisions.size,
    decisionsLogged: o.logged.size,
    repeatedLines,
    memoriesAcked: o.ackedMemories.length,
    lostInBuffer: missingDecisions(o, rule).inBuffer.length,
  };
}
