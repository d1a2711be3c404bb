// The learning feature's public entry: its routes, queue handlers (task.*, run.completed, gate.*), policy-memory reads.

import { defineFeature } from "../feature";
import type { PolicyMemoryReader } from "./policy-memory-port";
import { learningRoutes } from "./routes";
import { snapshotPolicyMemory } from "./snapshot";
import type { LearningStore } from "./store/learning-store-port";

export { applyRunCompletions, applyTaskEvents, type HandlerContext, recordGateEvents } from "./consume";
export type { LearningNeeds } from "./needs";
export { archiveCutoff } from "./policy-memory";
export { learningRoutes } from "./routes";
export { rankForRouting, snapshotPolicyMemory } from "./snapshot";
export { archivePolicyMemoryStatement } from "./store/policy-memory-writes";
export { pruneStagedTasksStatement } from "./store/task-outcomes";

/** Learning: events in, policy memory and routing ranks out; the policy-memory snapshot runs and decisions read. */
export const learningFeature = defineFeature({
  name: "learning",
  routes: [learningRoutes],
  build: {
    /** the team's policy memory for run snapshots and decisions (learning's snapshot over learningStore) */
    policyMemory: (d: { learningStore: LearningStore }): PolicyMemoryReader => ({
      snapshot: (teamId, now) => snapshotPolicyMemory(d, teamId, now),
    }),
  },
});
