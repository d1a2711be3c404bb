// ApiKeyStore over D1 (api_key rows; lookup by the key's public prefix).
import { and, desc, eq, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { ApiKeyRow, ApiKeyStore } from "../../../ports/api-key-store";
import { apiKeys } from "./tables";

export function createD1ApiKeyStore(db: DrizzleD1Database): ApiKeyStore {
  const one = (rows: ApiKeyRow[]) => rows[0] ?? null;
  return {
    async insert(row) {
      await db.insert(apiKeys).values(row);
    },
    async byPrefix(prefix) {
      return one(await db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix)).limit(1));
    },
    async byId(id) {
      return one(await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1));
    },
    async list(teamId) {
      return db.select().from(apiKeys).where(eq(apiKeys.teamId, teamId)).orderBy(desc(apiKeys.createdAt)).limit(1000);
    },
    async touch(id, now) {
      await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
    },
    async revoke(teamId, id, now) {
      await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.teamId, teamId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
      return one(
        await db
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.teamId, teamId), eq(apiKeys.id, id)))
          .limit(1),
      );
    },
  };
}
