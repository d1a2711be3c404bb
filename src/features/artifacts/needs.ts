// What the artifacts feature needs: the run objects (access, pii gate), the artifact rows and objects, ids, limits.

import type { ArtifactObjects } from "../../ports/artifact-objects";
import type { RunsService } from "../runs";
import type { ArtifactStore } from "./store/artifact-store-port";

export type ArtifactLimits = { maxBytes: number; teamQuotaBytes: number };

export type ArtifactsNeeds = {
  runs: RunsService;
  artifactStore: ArtifactStore;
  artifactObjects: ArtifactObjects;
  newId: (prefix: string) => string;
  artifactLimits: ArtifactLimits;
  /** WARDEN_JWT_SECRET signs view links; PUBLIC_URL is the only origin they point at */
  config: { WARDEN_JWT_SECRET: string; PUBLIC_URL: string };
};
