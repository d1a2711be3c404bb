// The work-board commands: `runs new --graph`, `board` and `personas list|set` (declared graphs, personas, the board).
import { type Command, Option } from "commander";
import type { Api } from "../src/client/index.ts";
import { defined, int, list, readJsonFile } from "./args.ts";
import { type BoardAnswer, boardText, type PersonaAnswer } from "./board-table.ts";
import { unwrap } from "./client.ts";
import { CliExit, type CliIo, EXIT } from "./io.ts";

/** What these commands need from the program: the run's io, the typed client, the output, whether --pretty is on. */
export type CommandContext = {
  io: CliIo;
  api: (cmd: Command) => Promise<Api>;
  out: (cmd: Command, value: unknown) => void;
  pretty: (cmd: Command) => boolean;
};

/**
 * A graph file: a JSON array of WorkItem v1, or `{goal, items, template?, skills?}`. The server checks the items
 * (ids, dependencies, cycles, sizes) and names every failing path; here only the shape and the goal are checked.
 */
export function graphRequest(file: string, goalFlag: string | undefined, cwd: string) {
  const body = readJsonFile(file, cwd);
  const asObject = !Array.isArray(body) && typeof body === "object" && body !== null;
  const items = Array.isArray(body) ? body : asObject ? (body as { items?: unknown }).items : undefined;
  if (!Array.isArray(items) || items.length === 0)
    throw new CliExit(EXIT.usage, `${file}: expected a non-empty array of work items, or {goal, items: [...]}`);
  const fromFile = asObject ? (body as Record<string, unknown>) : {};
  const goal = goalFlag ?? fromFile.goal;
  if (typeof goal !== "string" || goal.trim() === "")
    throw new CliExit(EXIT.usage, `${file} has no goal: give --goal <goal> or a {goal, items} file`);
  return { ...fromFile, goal, items };
}

export function registerBoardCommands(program: Command, runs: Command, ctx: CommandContext): void {
  runs
    .command("new")
    .description("start a run with a declared work graph (items released as orders once their dependencies passed)")
    .requiredOption("--graph <graph.json>", "WorkItem[] or {goal, items}")
    .option("--goal <goal>", "the run's goal (else the file's)")
    .option("--template <template>")
    .option("--skills <list>", "comma-separated skills", list)
    .action(async (o, cmd: Command) => {
      const body = {
        ...graphRequest(o.graph, o.goal, ctx.io.cwd),
        ...defined({ template: o.template, skills: o.skills }),
      };
      const a = await ctx.api(cmd);
      ctx.out(cmd, await unwrap(a.v1.runs.$post({ json: body as never })));
    });

  program
    .command("board")
    .description("the team's work board: per persona its cap, leased, ready, waiting and oldest wait; backpressure")
    .option("--json", "the raw GET /v1/board answer with the personas, instead of the table")
    .action(async (o, cmd: Command) => {
      const a = await ctx.api(cmd);
      const [board, { personas }] = await Promise.all([unwrap(a.v1.board.$get()), unwrap(a.v1.personas.$get())]);
      if (o.json) ctx.out(cmd, { ...board, personas });
      else ctx.io.stdout.write(`${boardText(board as BoardAnswer, personas as PersonaAnswer[])}\n`);
    });

  const personas = program.command("personas").description("personas: who may lease which items, and how many at once");
  personas
    .command("list")
    .description("the team's personas with live figures (GET /v1/personas)")
    .action(async (_o, cmd: Command) => {
      const a = await ctx.api(cmd);
      const r = await unwrap(a.v1.personas.$get());
      ctx.out(cmd, ctx.pretty(cmd) ? r.personas : r);
    });
  personas
    .command("set <persona_id>")
    .description("create or change a persona (PUT /v1/personas/:id); flags not given keep their current value")
    .option("--name <name>", "default: the current name, else the id")
    .option("--role <role>")
    .option("--limit <n>", "concurrency limit across all runs (1 = mutex)", int)
    .addOption(new Option("--enabled", "its items may be leased"))
    .addOption(new Option("--disabled", "its items wait").conflicts("enabled"))
    .action(async (id: string, o, cmd: Command) => {
      if (o.limit !== undefined && o.limit < 1) throw new CliExit(EXIT.usage, "--limit must be at least 1");
      const a = await ctx.api(cmd);
      const now = (await unwrap(a.v1.personas.$get())).personas.find((p) => p.persona_id === id && p.registered);
      const json = {
        name: o.name ?? now?.name ?? id,
        role: o.role ?? now?.role ?? "",
        concurrency_limit: o.limit ?? now?.concurrency_limit ?? 1,
        enabled: o.disabled ? false : o.enabled ? true : (now?.enabled ?? true),
      };
      ctx.out(cmd, await unwrap(a.v1.personas[":persona_id"].$put({ param: { persona_id: id }, json })));
    });
}
