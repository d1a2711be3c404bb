// BoardGateway over the BOARD Durable Object namespace: one object per team, named "board:" + team_id only.
import type { BoardGateway, BoardOps } from "../../ports/board";

export function createDurableBoardGateway(namespace: {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): unknown;
}): BoardGateway {
  return { forTeam: (teamId) => namespace.get(namespace.idFromName(`board:${teamId}`)) as BoardOps };
}
