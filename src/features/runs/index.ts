// The runs feature's public entry: its routes, the engine the RunDO wraps, the typed run operations, and the
// service other features call to reach a run (RunsService). Other features import runs only from here.

import type { BoardGateway } from "../../ports/board";
import { defineFeature } from "../feature";
import { runsFleetRoutes } from "./fleet-routes";
import { runsRoutes } from "./routes";
import type { RunsService } from "./run-call";
import type { CitedArtifacts } from "./use-cases";

export { type EngineDeps, RunEngine, type RunEngineNeeds } from "./engine";
export { LeaseNextBody, type RunsFleetNeeds } from "./fleet-routes";
export { guardStored } from "./guard-stored";
export { runOpCorrelation } from "./log-context";
export { DEFAULT_BUDGET, type RunState } from "./model";
export type {
  Activated,
  RunActor,
  RunOperations,
  RunOpName,
  RunOpReply,
  RunOpRequest,
  RunOpResult,
} from "./operations";
export { RUN_OPS } from "./operations";
export { runsRoutes } from "./routes";
export { actorOf, callRun, type RunsService, runErrors } from "./run-call";
export { CompleteBody, CreateRunBody, HeartbeatBody, OrderParams, RunParams } from "./schemas";
export { type PolicySnapshot, SNAPSHOT_STALE_AFTER_MS, staleness } from "./snapshot";
export { deleteApprovalEventsPageStatement } from "./store/run-record";
export { attemptSpend, teamAttempts } from "./store/team-attempts";
export { completeAttempt, leaseNext, startRun } from "./use-cases";

/** What the run routes need besides the HTTP basics: the run objects, an id source, the board, the artifacts a completion cites. */
export type RunsNeeds = {
  runs: RunsService;
  newId: (prefix: string) => string;
  board: BoardGateway;
  artifactStore: CitedArtifacts;
};

export const runsFeature = defineFeature({ name: "runs", routes: [runsRoutes, runsFleetRoutes] });
