// The memory feature's public entry: its routes, the services other features and the composition root may use, its needs.
export { metadataFields, scanFields } from "./guard/guard";
export { createMemoryHints, DEFAULT_PROJECT, HINTS_TOP_K } from "./hints";
export { createCardRefreshingMaintenance, createIndexSync, createTaskMemorySink } from "./learning-hooks";
export { type Caller, teamCaller } from "./namespaces";
export type { MemoryNeeds } from "./needs";
export { memoryRoutes } from "./routes";
export { ActivateBody, QueryBody, WriteBody } from "./schemas";
export {
  createMemoryService,
  type MemoryService,
  type MemoryServiceDeps,
  type QueryInput,
  type QueryResult,
  type WriteInput,
  type WriteOutcome,
} from "./service";
export { createSessions, type Sessions } from "./sessions";
