// D1 tables of the limits feature (drizzle): per-team rate limits and the raises waiting behind a deploy gate.

import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** Per-team rate limits by route class (absent rows: the documented defaults in src/http/rate-limits.ts). */
export const teamLimits = sqliteTable(
  "team_limit",
  {
    teamId: text("team_id").notNull(),
    routeClass: text("route_class").notNull(),
    perTeam: integer("per_team").notNull(),
    perSubject: integer("per_subject").notNull(),
    periodS: integer("period_s").notNull().default(60),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.routeClass] })],
);

/** Limit increases above the defaults, pending behind a policy_deploy hard gate until a second person approves. */
export const teamLimitRequests = sqliteTable(
  "team_limit_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    /** the requested rows, JSON: [{routeClass, perTeam, perSubject, periodS}] */
    limits: text("limits").notNull(),
    /** pending | applied */
    status: text("status").notNull(),
    requestedBy: text("requested_by").notNull(),
    createdAt: createdAt(),
    appliedAt: integer("applied_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);
