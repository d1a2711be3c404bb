// What the pages feature needs from the composition root: the run objects, the overview read model, the view-token secret.
import type { BoardGateway } from "../../ports/board";
import type { GateSlaNeeds } from "../gates";
import type { RunsService } from "../runs";
import type { OverviewStore } from "./store/overview-store-port";

export type PagesNeeds = GateSlaNeeds & {
  runs: RunsService;
  overviewStore: OverviewStore;
  /** the team's board: the overview's persona section (cap, leased, ready, oldest wait) */
  board: BoardGateway;
  /** WARDEN_JWT_SECRET: view tokens use a key derived from it */
  /** PUBLIC_URL: the only origin of the links Warden hands out (never the request's Host header) */
  config: { WARDEN_JWT_SECRET: string; PUBLIC_URL: string };
};
