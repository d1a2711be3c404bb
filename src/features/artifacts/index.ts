// The artifacts feature's public entry: evidence objects of runs on R2 (upload, download, signed links) and its needs.
export { DEFAULT_ARTIFACT_MAX_BYTES, DEFAULT_TEAM_QUOTA_BYTES } from "./domain";
export type { ArtifactLimits, ArtifactsNeeds } from "./needs";
export { type ArtifactRetentionNeeds, type ArtifactSweepReport, sweepArtifacts } from "./retention";

import { defineFeature } from "../feature";
import { artifactsRoutes } from "./routes";

export { artifactsRoutes };

/** Artifacts: evidence objects of runs on R2 (upload, download, signed links). */
export const artifactsFeature = defineFeature({ name: "artifacts", routes: [artifactsRoutes] });
