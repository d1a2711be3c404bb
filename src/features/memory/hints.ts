// HintsProvider over memory (YARLI run/task observer hints): best-effort with a time budget; failures are logged, never thrown.
import { log } from "../../lib/log";
import { within } from "../../lib/within";
import type { HintsProvider, MemoryHint } from "./hints-port";
import { teamCaller } from "./namespaces";
import type { MemoryService } from "./service";

export const HINTS_TOP_K = 5;
/** where the learning consumer files task.failed lessons of runs that name no project (YARLI project/<id>) */
export const DEFAULT_PROJECT = "default";
export const HINTS_BUDGET_MS = 300;

export function createMemoryHints(memory: MemoryService, opts: { budgetMs?: number } = {}): HintsProvider {
  const budget = opts.budgetMs ?? HINTS_BUDGET_MS;

  async function safely(teamId: string, what: string, work: () => Promise<MemoryHint[]>): Promise<MemoryHint[]> {
    const r = await within(Promise.resolve().then(work), budget, [] as MemoryHint[]);
    if (r.timedOut) log.warn("memory hints timed out", { team_id: teamId, what, budget_ms: budget });
    if (r.error !== undefined) log.error("memory hints failed", { team_id: teamId, what, error: String(r.error) });
    return r.value;
  }

  /** Warden reads for the whole team (its own team namespaces only); a refused query is logged and gives no hints. */
  async function hintsFor(teamId: string, namespaces: string[], text: string, now: number): Promise<MemoryHint[]> {
    const found = await memory.query(
      teamCaller(teamId),
      { namespaces, text: text.slice(0, 4000), top_k: HINTS_TOP_K },
      now,
    );
    if (!found.ok) {
      log.error("memory hints refused", { team_id: teamId, code: found.error.code });
      return [];
    }
    return found.value.map((r) => ({ id: r.id, namespace: r.namespace, class: r.class, text: r.text, score: r.score }));
  }

  return {
    forRunStart(teamId, q, now) {
      return safely(teamId, "run_start", async () => {
        const text = [q.goal, ...q.taskKeys].join(" ").trim();
        if (!text) return [];
        const namespaces = [`team/${teamId}/org`, `team/${teamId}/project/${q.projectId ?? DEFAULT_PROJECT}`];
        return hintsFor(teamId, namespaces, text, now);
      });
    },
    forTaskFailure(teamId, q, now) {
      return safely(teamId, "task_failure", async () => {
        const text = [q.reasonBucket, q.taskKey ?? ""].join(" ").trim();
        if (!text) return [];
        const namespaces = [
          `team/${teamId}/org`,
          `team/${teamId}/run/${q.runId}`,
          `team/${teamId}/project/${q.projectId ?? DEFAULT_PROJECT}`,
        ];
        return hintsFor(teamId, namespaces, text, now);
      });
    },
  };
}
