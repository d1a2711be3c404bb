// Port: where the learning consumer's YARLI memories (task.failed → semantic, task.blocked → episodic) are written.

export type TaskMemoryWrite = {
  namespace: string;
  class: "semantic" | "episodic";
  text: string;
  tags: string[];
  metadata: Record<string, unknown>;
};

/** ok, or refused by the write guard (secret, PII, raw URL, size) with its rule ids — nothing stored then. */
export type TaskMemoryResult = { ok: true; id?: string } | { ok: false; code: string; ruleIds: string[] };

export interface TaskMemorySink {
  store(teamId: string, memory: TaskMemoryWrite): Promise<TaskMemoryResult>;
}
