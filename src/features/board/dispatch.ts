// The board's dispatch order (pure, `now` passed in): which ready item a worker gets next — priority, then a fair
// share across runs, then age — within persona caps, persona identity and skills.
import type { Persona } from "../../ports/board";

/** the window over which lease-next shares leases fairly between runs */
export const FAIR_WINDOW_MS = 5 * 60_000;
/** a persona no one registered is the seed's persona mutex: one lease at a time, enabled */
export const DEFAULT_PERSONA_LIMIT = 1;

/** One ready item as the board sees it. */
export type Candidate = {
  run_id: string;
  item_id: string;
  priority: number;
  persona_id: string | null;
  skill: string | null;
  /** when the item became ready (age order) */
  ready_at: number;
  /** from when it may be leased (a retry back-off); null: not now */
  leasable_at: number | null;
};

export type Worker = { persona_id?: string; skills?: readonly string[]; run_id?: string; task_id?: string };

export type DispatchView = {
  candidates: readonly Candidate[];
  /** leases each persona holds now, across all the team's runs */
  leasedByPersona: ReadonlyMap<string, number>;
  personas: ReadonlyMap<string, Pick<Persona, "concurrency_limit" | "enabled">>;
  /** leases each run was granted within FAIR_WINDOW_MS */
  recentLeasesByRun: ReadonlyMap<string, number>;
};

/** May this worker take this candidate now (persona identity and cap, skill, the token's run or task)? */
export function eligible(c: Candidate, w: Worker, view: DispatchView, now: number): boolean {
  if (c.leasable_at === null || c.leasable_at > now) return false;
  if (w.run_id !== undefined && c.run_id !== w.run_id) return false;
  if (w.task_id !== undefined && c.item_id !== w.task_id) return false;
  if (c.skill !== null && w.skills !== undefined && !w.skills.includes(c.skill)) return false;
  if (c.persona_id === null) return true;
  if (w.persona_id !== c.persona_id) return false;
  const persona = view.personas.get(c.persona_id);
  if (persona && !persona.enabled) return false;
  const limit = persona?.concurrency_limit ?? DEFAULT_PERSONA_LIMIT;
  return (view.leasedByPersona.get(c.persona_id) ?? 0) < limit;
}

/**
 * The candidates this worker may take, best first: higher priority, then the run with the fewest recent leases (with
 * R runs waiting at one priority each gets about 1/R of the leases), then the oldest ready, then ids (a total order).
 */
export function rankFor(w: Worker, view: DispatchView, now: number): Candidate[] {
  const share = (c: Candidate) => view.recentLeasesByRun.get(c.run_id) ?? 0;
  return view.candidates
    .filter((c) => eligible(c, w, view, now))
    .sort(
      (a, b) =>
        b.priority - a.priority ||
        share(a) - share(b) ||
        a.ready_at - b.ready_at ||
        cmp(a.run_id, b.run_id) ||
        cmp(a.item_id, b.item_id),
    );
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
