// D1 tables of the artifacts feature (drizzle): artifact rows (their bytes are in R2) and per-team retention.

import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/**
 * One evidence object of a run (a log, JSON, a trace, a blob), its bytes in R2 under `key`; the row is written after
 * the object and deleted before it (docs/artifacts.md), so a row always has its object. `status` held = personal data
 * found, waiting for the run's pii_detected gate (`gate_id`); released = readable.
 */
export const artifacts = sqliteTable(
  "artifact",
  {
    artifactId: text("artifact_id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    opId: text("op_id"),
    kind: text("kind").notNull(),
    uri: text("uri").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    status: text("status").notNull(),
    gateId: text("gate_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("artifact_run").on(t.runId, t.createdAt),
    index("artifact_team").on(t.teamId, t.createdAt),
    index("artifact_expiry").on(t.expiresAt),
    // the sweep's second pass: a team's artifacts of one kind older than the team's retention of it
    index("artifact_team_kind").on(t.teamId, t.kind, t.createdAt),
    uniqueIndex("artifact_uri").on(t.uri),
  ],
);

/**
 * A team's retention of one artifact kind, in days, shorter than (or equal to) the deployment default
 * (`DEFAULT_RETENTION_DAYS`); absent = the default. The sweep deletes an artifact once either its `expires_at` or
 * `created_at` + these days has passed (docs/artifacts.md, "Retention").
 */
export const artifactRetention = sqliteTable(
  "artifact_retention",
  {
    teamId: text("team_id").notNull(),
    kind: text("kind").notNull(),
    days: integer("days").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.kind] })],
);
