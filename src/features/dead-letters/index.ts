// The dead-letters feature's public entry: the team-wide list of dead letters and one with its review's evidence.

import { defineFeature } from "../feature";
import type { RunsService } from "../runs";
import { deadLetterRoutes } from "./routes";
import type { DeadLetterIndex } from "./store/dead-letter-index-port";

export { deadLetterRoutes };

/** What the dead-letter routes need: the D1 read side and the run objects (a review gate's evidence lives there). */
export type DeadLetterNeeds = { deadLetterIndex: DeadLetterIndex; runs: RunsService };

/** Dead letters: GET /v1/dead-letters and GET /v1/dead-letters/:dead_letter_id. */
export const deadLettersFeature = defineFeature({ name: "dead-letters", routes: [deadLetterRoutes] });
