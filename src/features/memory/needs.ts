// What the memory feature's routes need from the composition root: its own service and the session episodes.

import type { MemoryService } from "./service";
import type { Sessions } from "./sessions";

export type MemoryNeeds = { memory: MemoryService; sessions: Sessions };
