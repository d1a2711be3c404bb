// What the limits feature needs: the team_limit store (it writes the audit row too), ids, and the run objects (an
// increase above the defaults is proposed on the team's control run); the cached limits come with HttpNeeds.
import type { TeamLimitStore } from "../../ports/team-limits";
import type { RunsService } from "../runs";

export type LimitsNeeds = { teamLimitStore: TeamLimitStore; newId: (prefix: string) => string; runs: RunsService };
