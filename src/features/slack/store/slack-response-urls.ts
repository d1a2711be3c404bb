// D1 adapter of response_url use counts (Slack's 5-in-30-minutes limit): one atomic upsert per use.
import { sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SlackResponseUrls } from "./slack-store-port";
import { slackResponseUrlUses } from "./tables";

const t = slackResponseUrlUses;

export function createD1SlackResponseUrls(db: DrizzleD1Database): SlackResponseUrls {
  return {
    async use(urlHash, teamId, now) {
      // one statement, so two consumer invocations answering the same url never lose a use
      const [row] = await db
        .insert(t)
        .values({ urlHash, teamId, firstUsedAt: now, uses: 1 })
        .onConflictDoUpdate({ target: t.urlHash, set: { uses: sql`${t.uses} + 1` } })
        .returning();
      return row ? { uses: row.uses, first_used_at: row.firstUsedAt } : { uses: 1, first_used_at: now };
    },
  };
}
