// The artifacts feature's public entry: evidence objects of runs on R2 (upload, download, signed links) and its needs.
export { DEFAULT_ARTIFACT_MAX_BYTES, DEFAULT_TEAM_QUOTA_BYTES } from "./domain";
export type { ArtifactLimits, ArtifactsNeeds } from "./needs";
export { type ArtifactRetentionNeeds, type ArtifactSweepReport, sweepArtifacts } from "./retention";

import { defineFeature } from "../feature";
import { retentionRoutes } from "./retention-routes";
import { artifactsRoutes } from "./routes";

export { artifactsRoutes, retentionRoutes };

/**
 * Artifacts: evidence objects of runs on R2 (upload, download, signed links) and the teams' retention of them. The
 * retention routes mount first: `/v1/artifacts/retention` is not an artifact id.
 */
export const artifactsFeature = defineFeature({ name: "artifacts", routes: [retentionRoutes, artifactsRoutes] });
