// Port: YARLI memory hints for runs (best-effort: a failure yields no hints, never a failed run).
export type MemoryHint = {
  id: string;
  namespace: string;
  class: string;
  text: string;
  score: number;
};

export interface HintsProvider {
  /** run.observer.memory_hints: queried with the run's goal and task keys */
  forRunStart(
    teamId: string,
    query: { goal: string; taskKeys: string[]; projectId?: string },
    now: number,
  ): Promise<MemoryHint[]>;
  /** task.observer.memory_hints: queried with a failed or blocked task's reason bucket */
  forTaskFailure(
    teamId: string,
    query: { reasonBucket: string; taskKey?: string; runId: string; projectId?: string },
    now: number,
  ): Promise<MemoryHint[]>;
}
