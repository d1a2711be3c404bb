// The artifacts feature's public entry: evidence objects of runs on R2 (upload, download, signed links) and its needs.
export { DEFAULT_ARTIFACT_MAX_BYTES, DEFAULT_TEAM_QUOTA_BYTES } from "./domain";
export type { ArtifactLimits, ArtifactsNeeds } from "./needs";
export { type ArtifactRetentionNeeds, type ArtifactSweepReport, sweepArtifacts } from "./retention";
export { artifactsRoutes } from "./routes";
