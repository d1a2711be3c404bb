// Tests' view of a team object's memory rows (VECTOR_INDEX, idFromName(team_id)): raw SQL inside the object, counts.
import { env, runInDurableObject } from "cloudflare:test";
import type { VectorIndexDO } from "../durable-objects/vector-index-do";

const teamObject = (teamId: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(teamId));

/** Runs one SQL statement in the team's object and returns its rows (the object's tables have no team_id). */
export function teamMemoryRows<T extends Record<string, SqlStorageValue>>(
  teamId: string,
  query: string,
  ...params: SqlStorageValue[]
): Promise<T[]> {
  return runInDurableObject(teamObject(teamId), (_o: VectorIndexDO, state) =>
    state.storage.sql.exec<T>(query, ...params).toArray(),
  );
}

/** The number of memories (mem_doc rows) in the team's object, optionally of one class. */
export async function teamMemoryCount(teamId: string, cls?: string): Promise<number> {
  const [row] = cls
    ? await teamMemoryRows<{ c: number }>(teamId, "SELECT count(*) AS c FROM mem_doc WHERE class = ?", cls)
    : await teamMemoryRows<{ c: number }>(teamId, "SELECT count(*) AS c FROM mem_doc");
  return row?.c ?? 0;
}

/** Rows of D1's own memory tables (all teams): the team objects hold memory, so these stay at 0. */
export async function d1MemoryRowCount(): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM mem_doc) + (SELECT count(*) FROM mem_actor_importance)
      + (SELECT count(*) FROM mem_use_event) AS c`,
  ).first<{ c: number }>();
  return row?.c ?? 0;
}
