// The run commands: `runs start|status|stop|explain-exit|say|messages|trace-url|list` (the board adds `runs new`).
import type { Command } from "commander";
import { budgetStanding } from "../src/lib/budget.ts";
import { defined, int, list } from "./args.ts";
import type { CommandContext } from "./board-commands.ts";
import { unwrap } from "./client.ts";

/** `runs start`: a run with its goal, template, skills and token budget. */
function addStartCommand(runs: Command, { api, out }: CommandContext): void {
  runs
    .command("start")
    .description("start a run; prints {run_id, status, hints, policy_snapshot}")
    .requiredOption("--goal <goal>")
    .option("--template <template>")
    .option("--skills <list>", "comma-separated skills", list)
    .option("--budget-input-tokens <n>", "per-step input cap", int)
    .option("--budget-output-tokens <n>", "per-step output cap", int)
    .option("--budget-total-tokens <n>", "whole-run cap", int)
    .action(async (o, cmd: Command) => {
      const budget = defined({
        input_tokens: o.budgetInputTokens,
        output_tokens: o.budgetOutputTokens,
        total_tokens: o.budgetTotalTokens,
      });
      const a = await api(cmd);
      out(
        cmd,
        await unwrap(
          a.v1.runs.$post({
            json: defined({
              goal: o.goal,
              template: o.template,
              skills: o.skills,
              budget: Object.keys(budget).length ? budget : undefined,
            }),
          }),
        ),
      );
    });
}

/** `runs status|stop|explain-exit`: one run's standing, its stop, and why it ended. */
function addStatusCommands(runs: Command, { api, out, pretty }: CommandContext): void {
  runs
    .command("status <run_id>")
    .description("the run: status, last steps, orders, gates, budget, dead letters")
    .action(async (runId: string, _o, cmd: Command) => {
      const a = await api(cmd);
      const run = await unwrap(a.v1.runs[":run_id"].$get({ param: { run_id: runId } }));
      // --pretty shows the budget as one line, by the definition the trace, overview and Slack use
      const { budget } = run;
      out(cmd, pretty(cmd) ? { ...run, budget: budgetStanding(budget, budget.used, budget.breaches).text } : run);
    });
  runs
    .command("stop <run_id>")
    .description("stop the run; open leases are revoked")
    .option("--reason <reason>")
    .action(async (runId: string, o, cmd: Command) => {
      const a = await api(cmd);
      out(
        cmd,
        await unwrap(
          a.v1.runs[":run_id"].stop.$post({ param: { run_id: runId }, json: defined({ reason: o.reason }) }),
        ),
      );
    });
  runs
    .command("explain-exit <run_id>")
    .description("why the run ended: terminal step, decisions, gates, hints")
    .action(async (runId: string, _o, cmd: Command) => {
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.runs[":run_id"]["explain-exit"].$get({ param: { run_id: runId } })));
    });
}

/** `runs say|messages|trace-url|list`: a run's conversation, its trace link, and the team's runs. */
function addConversationAndListCommands(runs: Command, { api, out, pretty }: CommandContext): void {
  runs
    .command("say <run_id>")
    .description("post a message to the run's conversation (talk; into its Slack thread); secrets / PII → exit 4")
    .requiredOption("--text <text>")
    .option("--op-id <op_id>", "idempotency key: a retry answers the message it wrote")
    .option("--task-id <task_id>", "the task the message is about")
    .action(async (runId: string, o, cmd: Command) => {
      const a = await api(cmd);
      const json = defined({ text: o.text, op_id: o.opId, task_id: o.taskId });
      out(cmd, await unwrap(a.v1.runs[":run_id"].messages.$post({ param: { run_id: runId }, json })));
    });
  runs
    .command("messages <run_id>")
    .description(
      "the run's messages after a cursor (workers' and people's Slack replies); prints {messages, next_after}",
    )
    .option("--after <seq>", "only messages after this seq (the previous next_after)", int)
    .action(async (runId: string, o, cmd: Command) => {
      const a = await api(cmd);
      const query = defined({ after: o.after === undefined ? undefined : String(o.after) });
      out(cmd, await unwrap(a.v1.runs[":run_id"].messages.$get({ param: { run_id: runId }, query })));
    });
  runs
    .command("trace-url <run_id>")
    .description("a signed read-only Run Trace URL (POST /v1/views, ≤ 15 min)")
    .action(async (runId: string, _o, cmd: Command) => {
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.views.$post({ json: { kind: "run", run_id: runId } })));
    });
  runs
    .command("list")
    .description("the team's runs (GET /v1/runs)")
    .option("--status <status>")
    .option("--cursor <cursor>")
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      const r = await unwrap(a.v1.runs.$get({ query: defined({ status: o.status, cursor: o.cursor }) }));
      out(cmd, pretty(cmd) ? r.runs : r);
    });
}

/** Registers `runs` and its commands; the group is returned so other modules add theirs to it. */
export function registerRunCommands(program: Command, context: CommandContext): Command {
  const runs = program
    .command("runs")
    .description("runs: start, status, stop, explain-exit, say, messages, trace-url, list");
  addStartCommand(runs, context);
  addStatusCommands(runs, context);
  addConversationAndListCommands(runs, context);
  return runs;
}
