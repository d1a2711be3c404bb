// Operator commands: `admin migrate-memory --team T` loops POST /v1/admin/memory/migrate until the team is switched.
import type { Command } from "commander";
import type { MigrateProgress } from "../src/features/memory-migration/migrate.ts";
import { int } from "./args.ts";
import type { CommandContext } from "./board-commands.ts";
import { unwrap } from "./client.ts";
import { CliExit, EXIT } from "./io.ts";

/** one answer of the copy route (the route's own type) */
export type { MigrateProgress };

/** `[#####     ] 5/10`: the copied share of the team's memories in `width` cells */
export function progressLine(p: Pick<MigrateProgress, "copied" | "total">, width = 24): string {
  const filled = p.total === 0 ? width : Math.min(width, Math.round((p.copied / p.total) * width));
  return `[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${p.copied}/${p.total}`;
}

/**
 * Calls `next` until the server says done, drawing each answer. Every call either copies a page or verifies, so the
 * loop ends; `maxCalls` only guards against a server that never answers done. A refusal (409: the copy did not
 * verify) throws out of `next` and ends the command with its exit code; running it again resumes.
 */
export async function runMigration(
  next: () => Promise<MigrateProgress>,
  draw: (p: MigrateProgress) => void,
  maxCalls = 1_000_000,
): Promise<MigrateProgress> {
  for (let call = 0; call < maxCalls; call++) {
    const p = await next();
    draw(p);
    if (p.done) return p;
  }
  throw new CliExit(EXIT.failure, `the copy did not finish after ${maxCalls} calls`);
}

export function registerAdminCommands(
  program: Command,
  { io, api, out }: CommandContext,
  tokenTeam: (cmd: Command) => Promise<string | null>,
): void {
  const admin = program.command("admin").description("operator commands (policy:admin)");
  admin
    .command("migrate-memory")
    .description(
      "copy the team's memory rows from D1 into its team object, verify and switch (resumable; the global --team names the team)",
    )
    .option("--batch <n>", "memories per call (1..500)", int, 200)
    .action(async (o: { batch: number }, cmd: Command) => {
      const team = (cmd.optsWithGlobals() as { team?: string }).team;
      if (!team) throw new CliExit(EXIT.usage, "name the team: warden admin migrate-memory --team <team_id>");
      if (o.batch < 1 || o.batch > 500) throw new CliExit(EXIT.usage, "--batch must be 1..500");
      const tokenOf = await tokenTeam(cmd);
      if (tokenOf !== team)
        throw new CliExit(
          EXIT.auth,
          `the token is team ${tokenOf ?? "(none)"}'s, not ${team}'s: use a token of ${team}`,
        );
      const a = await api(cmd);
      const tty = io.stderr.isTTY === true;
      const done = await runMigration(
        () => unwrap(a.v1.admin.memory.migrate.$post({ json: { batch: o.batch } })),
        (p) => io.stderr.write(tty ? `\r${progressLine(p)}` : `${progressLine(p)}\n`),
      );
      if (tty) io.stderr.write("\n");
      out(cmd, done);
    });
}
