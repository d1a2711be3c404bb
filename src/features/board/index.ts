// The board feature's public entry: its routes, the Board use-case and store the BoardDO wraps, what it needs.

import type { BoardGateway } from "../../ports/board";
import { defineFeature } from "../feature";
import { boardRoutes } from "./routes";

export { Board } from "./board";
export { BoardStore } from "./board-store";
export { boardRoutes } from "./routes";

/** What the board routes need: the team's board object. */
export type BoardNeeds = { board: BoardGateway };
export { type GraphProgress, graphProgress, graphProgressText, type ProgressItem } from "./graph-progress";
export { HEALTH_KINDS, HEALTH_NOISE, HEALTH_PERSONAS, type HealthDoc, healthDagItems } from "./health-dag";

export const boardFeature = defineFeature({ name: "board", routes: [boardRoutes] });
