// What the learning feature needs from the composition root: its store, the memory sink, the event bus, ids, a clock.
import type { EventBus } from "../../ports/event-bus";
import type { HintsProvider } from "../memory/domain";
import type { LearningStore } from "./store/learning-store-port";
import type { TaskMemorySink } from "./task-memory-port";

export type LearningNeeds = {
  learningStore: LearningStore;
  /** YARLI memories from task.failed / task.blocked (the memory feature provides it) */
  taskMemory: TaskMemorySink;
  events: EventBus;
  /** YARLI task.observer.memory_hints for agents posting task.failed / task.blocked (best-effort) */
  hints: HintsProvider;
  newId: (prefix: string) => string;
  clock: { now(): number };
};
