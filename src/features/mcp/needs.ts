// What the MCP endpoint needs from the composition root: the needs of every route its tools mirror, and the audit log.
import type { AuditLogStore } from "../../ports/audit-log";
import type { GateInboxNeeds } from "../gates";
import type { MemoryNeeds } from "../memory";
import type { PolicyNeeds } from "../policy";
import type { RunsFleetNeeds } from "../runs";

export type McpNeeds = PolicyNeeds &
  RunsFleetNeeds &
  GateInboxNeeds &
  MemoryNeeds & { auditLog: Pick<AuditLogStore, "append"> };
