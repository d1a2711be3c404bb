// D1 tables of the gates feature (drizzle): gate rules, gate SLAs and their alerts, deploy approvers and their requests.

import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** a team's gate SLA settings (PUT /v1/gates/sla: time zone, business hours, ack and resolve SLAs); no row = the
 * seed's defaults (src/features/gates/sla.ts) */
export const teamGateSla = sqliteTable("team_gate_sla", {
  teamId: text("team_id").primaryKey(),
  /** GateSlaSettings as JSON */
  settings: text("settings", { mode: "json" }).notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** SLA breaches already alerted: one row per gate and breach kind (ack | resolve), so each is alerted once */
export const gateSlaAlerts = sqliteTable(
  "gate_sla_alert",
  {
    gateId: text("gate_id").notNull(),
    /** ack | resolve */
    breach: text("breach").notNull(),
    teamId: text("team_id").notNull(),
    alertedAt: integer("alerted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.gateId, t.breach] })],
);

export const gateRules = sqliteTable(
  "gate_rule",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    /** pending | active | retired */
    status: text("status").notNull(),
    body: text("body", { mode: "json" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);

/** The team's deploy approvers: when any are set, only they decide its control run's hard gates (deploys). */
export const deployApprovers = sqliteTable(
  "deploy_approver",
  {
    teamId: text("team_id").notNull(),
    subject: text("subject").notNull(),
    /** the approved roster request that added it */
    version: integer("version").notNull(),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.subject] })],
);

/** A new deploy-approver roster, pending behind a policy_deploy hard gate decided by an approver already on it. */
export const deployApproverRequests = sqliteTable(
  "deploy_approver_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    /** the whole new roster, JSON: ["alice", "bob"] */
    subjects: text("subjects").notNull(),
    /** pending | applied */
    status: text("status").notNull(),
    requestedBy: text("requested_by").notNull(),
    createdAt: createdAt(),
    appliedAt: integer("applied_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);
