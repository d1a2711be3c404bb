// D1 adapter for the Slack tables (drizzle, typed rows): installations with roster, posted messages, inbound dedupe.
import { and, eq, ne, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { insertNextVersion } from "../../../adapters/d1/next-version";
import type { TokenCipher } from "../../../adapters/slack/token-cipher";
import type {
  SlackApprover,
  SlackChannels,
  SlackGrant,
  SlackInstallation,
  SlackSettings,
  SlackStore,
} from "./slack-store-port";
import { slackApprovers, slackChangeRequests, slackInbound, slackInstallations, slackMessages } from "./tables";

/** An OAuth grant is stored as an installation row whose channels are `{}` (none set yet): nothing posts to it. */
const GRANT_CHANNELS = {};
const isGrant = (row: typeof slackInstallations.$inferSelect) =>
  typeof (row.channels as Partial<SlackChannels> | null)?.approvals !== "string";

/** an installation row with its roster and the bot token unsealed; null for none or a grant without channels */
async function loadInstallation(
  db: DrizzleD1Database,
  cipher: TokenCipher | null,
  row: typeof slackInstallations.$inferSelect | undefined,
): Promise<SlackInstallation | null> {
  // a grant without channels is not an installation yet: cards, commands and the outbox see "not installed"
  if (!row || !cipher || isGrant(row)) return null;
  const roster = await db.select().from(slackApprovers).where(eq(slackApprovers.teamId, row.teamId));
  return {
    workspace_id: row.workspaceId,
    team_id: row.teamId,
    channels: row.channels as SlackChannels,
    settings: (row.settings ?? {}) as SlackSettings,
    approvers: roster.map((r) => ({
      slack_user_id: r.slackUserId,
      subject: r.subject,
      role: r.role as SlackApprover["role"],
    })),
    bot_token: await cipher.decrypt(row.botTokenEnc),
  };
}

/** One batch: the installation, the team's previous roster gone, the new roster in. */
function installStatements(
  db: DrizzleD1Database,
  inst: Omit<SlackInstallation, "bot_token">,
  sealed: string,
  now: number,
) {
  const row = {
    workspaceId: inst.workspace_id,
    teamId: inst.team_id,
    botTokenEnc: sealed,
    channels: inst.channels,
    settings: inst.settings,
    createdAt: now,
    updatedAt: now,
  };
  return [
    db.delete(slackInstallations).where(eq(slackInstallations.teamId, inst.team_id)),
    db
      .insert(slackInstallations)
      .values(row)
      .onConflictDoUpdate({
        target: slackInstallations.workspaceId,
        set: {
          teamId: row.teamId,
          botTokenEnc: sealed,
          channels: row.channels,
          settings: row.settings,
          updatedAt: now,
        },
      }),
    db.delete(slackApprovers).where(eq(slackApprovers.teamId, inst.team_id)),
    ...inst.approvers.map((a) =>
      db.insert(slackApprovers).values({
        teamId: inst.team_id,
        slackUserId: a.slack_user_id,
        subject: a.subject,
        role: a.role,
        createdAt: now,
      }),
    ),
  ] as const;
}
/** the bot token sealed for storage; refused without SLACK_TOKEN_KEY */
function seal(cipher: TokenCipher | null, token: string) {
  if (!cipher) throw new Error("SLACK_TOKEN_KEY is not set: bot tokens cannot be stored");
  return cipher.encrypt(token);
}

/** installations and roster changes: put, propose behind a gate, activate */
function installationWrites(
  db: DrizzleD1Database,
  cipher: TokenCipher | null,
): Pick<SlackStore, "putInstallation" | "proposeChange" | "activateChange"> {
  return {
    async putInstallation(inst, now) {
      await db.batch(installStatements(db, inst, await seal(cipher, inst.bot_token), now));
    },
    async proposeChange(inst, proposedBy, now) {
      const sealed = await seal(cipher, inst.bot_token);
      return insertNextVersion(db, slackChangeRequests, inst.team_id, {
        status: "pending",
        workspaceId: inst.workspace_id,
        botTokenEnc: sealed,
        channels: inst.channels,
        approvers: inst.approvers,
        settings: inst.settings,
        proposedBy,
        createdAt: now,
      });
    },
    async activateChange(teamId, version, now) {
      const at = and(eq(slackChangeRequests.teamId, teamId), eq(slackChangeRequests.version, version));
      const [row] = await db.select().from(slackChangeRequests).where(at);
      if (row?.status !== "pending") return false;
      const inst = {
        workspace_id: row.workspaceId,
        team_id: teamId,
        channels: row.channels as SlackChannels,
        approvers: row.approvers as SlackApprover[],
        settings: row.settings as SlackSettings,
      };
      await db.batch([
        ...installStatements(db, inst, row.botTokenEnc, now),
        db.update(slackChangeRequests).set({ status: "active", activatedAt: now }).where(at),
      ]);
      return true;
    },
  };
}

/** the OAuth grant (a workspace token before channels are chosen), and the team of a workspace */
function grantRows(
  db: DrizzleD1Database,
  cipher: TokenCipher | null,
): Pick<SlackStore, "workspaceTeam" | "putGrant" | "grantOf"> {
  return {
    async workspaceTeam(workspaceId) {
      const [row] = await db
        .select({ teamId: slackInstallations.teamId })
        .from(slackInstallations)
        .where(eq(slackInstallations.workspaceId, workspaceId));
      return row?.teamId ?? null;
    },
    async putGrant(grant: SlackGrant, now) {
      const sealed = await seal(cipher, grant.bot_token);
      // Only ever replaces this team's own grant: the conditional upsert leaves another team's workspace, or an
      // installation with channels, untouched (the use-case refuses both before; this holds it under a race too).
      await db.batch([
        db
          .delete(slackInstallations)
          .where(
            and(
              eq(slackInstallations.teamId, grant.team_id),
              ne(slackInstallations.workspaceId, grant.workspace_id),
              sql`json_extract(${slackInstallations.channels}, '$.approvals') IS NULL`,
            ),
          ),
        db
          .insert(slackInstallations)
          .values({
            workspaceId: grant.workspace_id,
            teamId: grant.team_id,
            botTokenEnc: sealed,
            channels: GRANT_CHANNELS,
            settings: {},
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: slackInstallations.workspaceId,
            set: { botTokenEnc: sealed, updatedAt: now },
            setWhere: and(
              eq(slackInstallations.teamId, grant.team_id),
              sql`json_extract(${slackInstallations.channels}, '$.approvals') IS NULL`,
            ),
          }),
      ]);
    },
    async grantOf(teamId) {
      const [row] = await db.select().from(slackInstallations).where(eq(slackInstallations.teamId, teamId));
      if (!row || !cipher || !isGrant(row)) return null;
      return { workspace_id: row.workspaceId, team_id: teamId, bot_token: await cipher.decrypt(row.botTokenEnc) };
    },
  };
}

/** an installation by workspace or team */
function installationReads(
  db: DrizzleD1Database,
  cipher: TokenCipher | null,
): Pick<SlackStore, "byWorkspace" | "byTeam"> {
  return {
    async byWorkspace(workspaceId) {
      const [row] = await db.select().from(slackInstallations).where(eq(slackInstallations.workspaceId, workspaceId));
      return loadInstallation(db, cipher, row);
    },
    async byTeam(teamId) {
      const [row] = await db.select().from(slackInstallations).where(eq(slackInstallations.teamId, teamId));
      return loadInstallation(db, cipher, row);
    },
  };
}

/** inbound deliveries already handled and the messages the outbox posted */
function deliveryRows(
  db: DrizzleD1Database,
): Pick<SlackStore, "firstDelivery" | "forgetDelivery" | "postedMessage" | "recordPosted"> {
  return {
    async firstDelivery(key, now) {
      const res = await db.insert(slackInbound).values({ key, createdAt: now }).onConflictDoNothing().run();
      return (res.meta?.changes ?? 0) > 0;
    },
    async forgetDelivery(key) {
      await db.delete(slackInbound).where(eq(slackInbound.key, key));
    },
    async postedMessage(key) {
      const [row] = await db.select().from(slackMessages).where(eq(slackMessages.key, key));
      return row ? { channel: row.channel, ts: row.ts, version: row.version } : null;
    },
    async recordPosted({ key, teamId, channel, ts, version }, now) {
      await db
        .insert(slackMessages)
        .values({ key, teamId, channel, ts, version, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: slackMessages.key, set: { channel, ts, version, updatedAt: now } });
    },
  };
}

export function createD1SlackStore(db: DrizzleD1Database, cipher: TokenCipher | null): SlackStore {
  return {
    ...installationWrites(db, cipher),
    ...grantRows(db, cipher),
    ...installationReads(db, cipher),
    ...deliveryRows(db),
  };
}
