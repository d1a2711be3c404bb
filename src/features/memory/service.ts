// The memory service: the write, query and lifecycle use-cases over one set of dependencies (each returns a Result).

import type { MemoryServiceDeps } from "./core";
import { createMemoryLifecycle } from "./lifecycle";
import { createMemoryQuery } from "./query";
import { createMemoryWrites } from "./write";

export type { Defer, MemoryServiceDeps, Timing } from "./core";
export type { QueryInput, QueryResult } from "./query";
export type { WriteInput, WriteOutcome } from "./write";

export type MemoryService = ReturnType<typeof createMemoryService>;

export function createMemoryService(d: MemoryServiceDeps) {
  return { ...createMemoryWrites(d), ...createMemoryQuery(d), ...createMemoryLifecycle(d) };
}
