// What the limits feature needs: the team_limit store (it writes the audit row too) and ids; the cached limits come with HttpNeeds.
import type { TeamLimitStore } from "../../ports/team-limits";

export type LimitsNeeds = { teamLimitStore: TeamLimitStore; newId: (prefix: string) => string };
