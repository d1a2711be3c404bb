// What the memory feature's routes need from the composition root: its own service and the session episodes.

import type { ArtifactStore } from "../artifacts/domain";
import type { MemoryService } from "./service";
import type { Sessions } from "./sessions";

/** `artifactStore`: memory evidence (`metadata.evidence`) must name the team's artifacts */
export type MemoryNeeds = { memory: MemoryService; sessions: Sessions; artifactStore: Pick<ArtifactStore, "ownedBy"> };
