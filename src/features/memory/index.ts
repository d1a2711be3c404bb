// The memory feature's public entry: its routes, the services other features and the composition root may use, its needs.
import type { AuditLogStore } from "../../ports/audit-log";
import type { Clock } from "../../ports/clock";
import type { TeamMemoryMaintenance } from "../../ports/memory-maintenance";
import { defineFeature } from "../feature";
import { createMemoryHints } from "./hints";
import { createCardRefreshingMaintenance, createIndexSync, createTaskMemorySink } from "./learning-hooks";
import { memoryRoutes } from "./routes";
import { createMemoryService, type MemoryService, type MemoryServiceDeps } from "./service";
import { createSessions } from "./sessions";
import type { RouteLedger } from "./store/route-ledger-port";

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

/** The shared adapters the memory service is built over. */
type MemoryParts = Pick<MemoryServiceDeps, "embedder" | "events" | "newId"> & {
  memoryStore: MemoryServiceDeps["store"];
  vectorIndex: MemoryServiceDeps["index"];
  config: { MEMORY_SUMMARY_MAX_CHARS: number };
};
type WithMemory = { memory: MemoryService };

/** Memory: its routes, and the memory service with what learning, sweeps, sessions and runs use of it. */
export const memoryFeature = defineFeature({
  name: "memory",
  routes: [memoryRoutes],
  build: {
    memory: (d: MemoryParts) =>
      createMemoryService({
        store: d.memoryStore,
        index: d.vectorIndex,
        embedder: d.embedder,
        events: d.events,
        newId: d.newId,
        summaryMaxChars: d.config.MEMORY_SUMMARY_MAX_CHARS,
      }),
    /** memory hints for runs (best-effort, over the memory query) */
    hints: (d: WithMemory) => createMemoryHints(d.memory),
    /** YARLI memories from task.failed / task.blocked, written through the guarded memory write use-case */
    taskMemory: (d: WithMemory & { clock: Clock }) => createTaskMemorySink(d.memory, () => d.clock.now()),
    memoryMaintenance: (d: WithMemory & { memoryMaintenanceStore: TeamMemoryMaintenance }) =>
      createCardRefreshingMaintenance(d.memoryMaintenanceStore, d.memory),
    /** removes memories that left the hot tier from the vector index */
    memoryIndexSync: (d: Pick<MemoryParts, "vectorIndex">) => createIndexSync(d.vectorIndex),
    sessions: (
      d: WithMemory &
        Pick<MemoryParts, "memoryStore" | "events" | "newId"> & { routeLedger: RouteLedger; auditLog: AuditLogStore },
    ) =>
      createSessions({
        store: d.memoryStore,
        routeLedger: d.routeLedger,
        auditLog: d.auditLog,
        memory: d.memory,
        events: d.events,
        newId: d.newId,
      }),
  },
});
