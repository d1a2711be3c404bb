// The learning feature's public entry: its routes, queue handlers (task.*, run.completed, gate.*), policy-memory reads.
export { applyRunCompletions, applyTaskEvents, type HandlerContext, recordGateEvents } from "./consume";
export type { LearningNeeds } from "./needs";
export { archiveCutoff } from "./policy-memory";
export { learningRoutes } from "./routes";
export { rankForRouting, snapshotPolicyMemory } from "./snapshot";
