// The crash drill's pure parts: when to kill the runtime (seeded), and the verdict over what was acknowledged and found.
import { seededRandom } from "../seeded-random.ts";

/** `kills` moments in [0.1, 0.9] × spanMs, sorted, from `seed` (the same seed gives the same drill). */
export function killOffsets(seed: number, kills: number, spanMs: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: kills }, () => Math.round((0.1 + 0.8 * random()) * spanMs)).sort((a, b) => a - b);
}

export type DrillObservation = {
  /** every completion the server answered 200: run id → item ids */
  acked: Map<string, Set<string>>;
  /** every run of the drill's team, as GET /v1/runs lists it */
  runs: { run_id: string; status: string }[];
  /** each run's items as GET /v1/runs/:id lists them */
  items: Map<string, { item_id: string; state: string }[]>;
  /** success_count per skill from GET /v1/policy-memory */
  learned: Map<string, number>;
  /** the skills every drill run declares (one item each) */
  skills: string[];
};

/**
 * What went wrong, one line per problem (empty: the drill held): an acknowledged completion whose item is not passed
 * (lost), a run that did not finish (stranded), a skill learned more or less often than the finished runs that hold it.
 */
export function drillProblems(o: DrillObservation): string[] {
  const problems: string[] = [];
  for (const [runId, itemIds] of o.acked) {
    const items = o.items.get(runId) ?? [];
    for (const id of itemIds)
      if (!items.some((i) => i.item_id === id && i.state === "passed"))
        problems.push(
          `lost: ${runId}/${id} was acknowledged but is ${items.find((i) => i.item_id === id)?.state ?? "missing"}`,
        );
  }
  const finished = o.runs.filter((r) => r.status === "COMPLETE");
  for (const r of o.runs) if (r.status !== "COMPLETE") problems.push(`stranded: ${r.run_id} is ${r.status}`);
  for (const skill of o.skills) {
    const got = o.learned.get(skill) ?? 0;
    if (got !== finished.length)
      problems.push(`learning: ${skill} learned ${got} times for ${finished.length} finished runs`);
  }
  return problems;
}
