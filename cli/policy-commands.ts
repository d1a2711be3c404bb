// The policy commands: `policy decide|show|replay|deploy` (the team's MemRL profile: decisions, replays, proposals).
import { type Command, Option } from "commander";
import { defined, int, readJsonFile } from "./args.ts";
import type { CommandContext } from "./board-commands.ts";
import { unwrap } from "./client.ts";
import { spinning } from "./io.ts";

/** `policy decide`: retry or escalate, the request's JSON fields as flags. */
function addDecideCommand(policy: Command, { api, out }: CommandContext): void {
  policy
    .command("decide")
    .description("retry or escalate? (flags mirror the request's JSON fields)")
    .addOption(new Option("--memrl-mode <mode>").choices(["off", "observe", "enforce"]))
    .option("--failure-class <class>")
    .option("--attempt <n>", "1-indexed attempt", int)
    .option("--max-attempts <n>", "", int)
    .addOption(new Option("--attempt-bucket <bucket>").choices(["initial", "middle", "final", "overflow"]))
    .addOption(new Option("--legacy-action <action>").choices(["retry", "escalate"]))
    .option("--run-id <run_id>")
    .option("--task-id <task_id>")
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      const json = defined({
        memrl_mode: o.memrlMode,
        failure_class: o.failureClass,
        attempt: o.attempt,
        max_attempts: o.maxAttempts,
        attempt_bucket: o.attemptBucket,
        legacy_action: o.legacyAction,
        run_id: o.runId,
        task_id: o.taskId,
      });
      out(cmd, await unwrap(a.v1.policy.decide.$post({ json: json as never })));
    });
}

/** Registers `policy` and its commands. */
export function registerPolicyCommands(program: Command, context: CommandContext): void {
  const { io, api, out } = context;
  const policy = program.command("policy").description("MemRL policy: decide, show, replay, deploy");
  addDecideCommand(policy, context);
  policy
    .command("show")
    .description("the team's active MemRL profile")
    .action(async (_o, cmd: Command) => {
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.policy.profile.$get()));
    });
  policy
    .command("replay <profile>")
    .description("how a candidate profile (JSON file) would have decided the logged decisions")
    .option("--since <iso|ms>", "only decisions since then")
    .action(async (file: string, o, cmd: Command) => {
      const profile = readJsonFile(file, io.cwd);
      const since = o.since === undefined ? undefined : /^\d+$/.test(o.since) ? Number(o.since) : o.since;
      const a = await api(cmd);
      out(
        cmd,
        await spinning(
          io.stderr,
          "replaying",
          unwrap(a.v1.policy.replay.$post({ json: defined({ profile, since }) as never })),
        ),
      );
    });
  policy
    .command("deploy <profile>")
    .description(
      "propose a profile (JSON file); it activates when its policy_deploy gate is approved. An enforce profile must " +
        "pass conformance, parity and the trend gate first (exit on 422/409, nothing stored); its gate lists " +
        "acks_required: approve it with --note naming ack:<class> for each",
    )
    .action(async (file: string, _o, cmd: Command) => {
      const profile = readJsonFile(file, io.cwd);
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.policy.profile.$put({ json: profile as never })));
    });
}
