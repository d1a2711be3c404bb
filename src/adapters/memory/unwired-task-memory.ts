// TaskMemorySink placeholder until the memory feature's write use-case is connected: stores nothing, says so once.
import type { TaskMemorySink } from "../../ports/task-memory";

export function createUnwiredTaskMemorySink(): TaskMemorySink {
  let told = false;
  return {
    async store(teamId, memory) {
      if (!told) {
        told = true;
        console.warn(
          JSON.stringify({
            level: "warn",
            msg: "task memories are planned but not stored: connect deps.taskMemory to the memory write use-case",
            team_id: teamId,
            namespace: memory.namespace,
          }),
        );
      }
      return { ok: true };
    },
  };
}
