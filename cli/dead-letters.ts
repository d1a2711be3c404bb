// `warden dead-letters list|show|reissue|discard`: one dead letter or many (filters, --all) with a confirmation.
import { createInterface } from "node:readline/promises";
import { type Command, Option } from "commander";
import type { Api } from "../src/client/index.ts";
import { defined, int, readJsonFile } from "./args.ts";
import type { CommandContext } from "./board-commands.ts";
import { isWardenError, unwrap } from "./client.ts";
import { CliExit, type CliIo, EXIT, pretty, progress } from "./io.ts";

type DeadLetter = {
  dead_letter_id: string;
  run_id: string;
  op_id: string;
  resolved_at: number | null;
  resolver: string | null;
  review_gate_id: string | null;
  review_status: string | null;
};
type Action = "reissue" | "discard";
/** What became of one dead letter: reissued (its review approved), gate_opened (a dead_letter_reissue gate waits for
 * an approver or its timer), discarded (review skipped), already_resolved, or failed (why). */
type ItemResult = { dead_letter_id: string; run_id: string; result: string; gate_id?: string; error?: string };

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a duration back from `now` (30m, 1h, 7d) or an ISO date; ms since the epoch. */
export function sinceMs(value: string, now: number): number {
  const m = /^(\d+)([mhd])$/.exec(value.trim());
  if (m) return now - Number(m[1]) * (UNITS[m[2] as string] as number);
  const at = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw new CliExit(EXIT.usage, `--since ${value}: give a duration (30m, 1h, 7d) or an ISO date`);
  return at;
}

type Status = "open" | "resolved" | "all";
type Filters = { reason?: string; since?: string; run?: string; status?: Status; limit?: number };
const query = (o: Filters, status: Status = o.status ?? "open") =>
  defined({
    status,
    reason: o.reason,
    since: o.since === undefined ? undefined : String(sinceMs(o.since, Date.now())),
    run_id: o.run,
    limit: o.limit === undefined ? undefined : String(o.limit),
  });

async function listed(a: Api, o: Filters, status?: Status): Promise<DeadLetter[]> {
  return (await unwrap(a.v1["dead-letters"].$get({ query: query(o, status) }))).dead_letters;
}

const failureText = (e: unknown) => (isWardenError(e) ? `${e.status} ${e.code}: ${e.message}` : String(e));

/** One dead letter's reissue or discard; a refusal is a result of the item, not the end of the batch. */
async function settle(a: Api, dl: DeadLetter, action: Action, note: string, patch?: unknown): Promise<ItemResult> {
  const base = { dead_letter_id: dl.dead_letter_id, run_id: dl.run_id };
  if (dl.resolved_at !== null) return { ...base, result: "already_resolved", error: `resolved by ${dl.resolver}` };
  try {
    if (dl.review_gate_id && dl.review_status === "pending") {
      const param = { gate_id: dl.review_gate_id };
      const decision = action === "reissue" ? "approve_retry" : "approve_skip";
      const digest = patch
        ? (await unwrap(a.v1["dead-letters"][":dead_letter_id"].$get({ param: { dead_letter_id: dl.dead_letter_id } })))
            .review?.digest
        : undefined;
      const json = { decision, note, ...defined({ digest, patch: patch as Record<string, unknown> | undefined }) };
      await unwrap(a.v1.gates[":gate_id"].decision.$post({ param, json: json as never }));
      return { ...base, result: action === "reissue" ? "reissued" : "discarded", gate_id: dl.review_gate_id };
    }
    if (action === "discard" || patch !== undefined)
      return {
        ...base,
        result: "failed",
        error: `no pending review gate: only a wrong_value dead letter under review can be ${action === "discard" ? "discarded" : "reissued with a patch"} (stop its run to end it)`,
      };
    const json = { policy_key: "dead_letter_reissue", op_id: dl.op_id, context: { dead_letter_id: dl.dead_letter_id } };
    const gate = await unwrap(a.v1.runs[":run_id"].gates.$post({ param: { run_id: dl.run_id }, json }));
    return { ...base, result: gate.status === "allowed" ? "reissued" : "gate_opened", gate_id: gate.gate_id };
  } catch (e) {
    return { ...base, result: "failed", error: failureText(e) };
  }
}

/**
 * How many dead letters a bulk action settles at once: a few requests in flight hide the round trips (each item is a
 * read and a decision), while each run object still takes its gates' decisions one at a time.
 */
const BULK_IN_FLIGHT = 4;

/** `work` over every item, at most `limit` at once; the answers in the items' order. */
export async function eachLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Asks on the terminal; without one, only --yes confirms (a script never hangs on a prompt). */
async function confirmed(io: CliIo, question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (io.stdin?.isTTY !== true)
    throw new CliExit(EXIT.usage, `${question}: stdin is not a terminal, pass --yes to confirm (nothing changed)`);
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

type ActOptions = Filters & { note: string; patch?: string; all?: boolean; yes?: boolean };

async function act(ctx: CommandContext, cmd: Command, action: Action, id: string | undefined, o: ActOptions) {
  const filtered = o.reason !== undefined || o.since !== undefined || o.run !== undefined;
  if (id !== undefined && (filtered || o.all))
    throw new CliExit(EXIT.usage, "give a dead letter id or filters, not both");
  if (id === undefined && !filtered && !o.all)
    throw new CliExit(EXIT.usage, `give a dead letter id, filters (--reason, --since, --run) or --all`);
  if (o.patch !== undefined && id === undefined) throw new CliExit(EXIT.usage, "--patch corrects one dead letter");
  const patch = o.patch === undefined ? undefined : readJsonFile(o.patch, ctx.io.cwd);
  if (patch !== undefined && (typeof patch !== "object" || patch === null || Array.isArray(patch)))
    throw new CliExit(EXIT.usage, `${o.patch}: a JSON merge patch is a JSON object`);
  const a = await ctx.api(cmd);
  if (id !== undefined) {
    const dl = await unwrap(a.v1["dead-letters"][":dead_letter_id"].$get({ param: { dead_letter_id: id } }));
    const r = await settle(a, dl, action, o.note, patch);
    ctx.out(cmd, r);
    if (r.result === "failed" || r.result === "already_resolved") throw new CliExit(EXIT.refused, r.error ?? "refused");
    return;
  }
  const matched = await listed(a, o);
  if (matched.length > 0 && !(await confirmed(ctx.io, `${action} ${matched.length} dead letter(s)`, o.yes === true)))
    throw new CliExit(EXIT.failure, "not confirmed: nothing changed");
  const bar = progress(ctx.io.stderr, matched.length, action);
  const results = await eachLimited(matched, BULK_IN_FLIGHT, async (dl) => {
    const r = await settle(a, dl, action, o.note);
    bar.tick();
    return r;
  });
  bar.end();
  const failed = results.filter((r) => r.result === "failed").length;
  const summary = { action, matched: matched.length, failed, results };
  if (ctx.pretty(cmd)) ctx.io.stdout.write(`${pretty(results)}\n${matched.length - failed} done, ${failed} failed\n`);
  else ctx.out(cmd, summary);
  if (failed > 0) throw new CliExit(EXIT.refused, `${failed} of ${matched.length} dead letters failed`);
}

const LIST_COLUMNS = ["dead_letter_id", "run_id", "reason_code", "failure_class", "created_at", "review_status"];

export function registerDeadLetterCommands(program: Command, ctx: CommandContext): void {
  const dl = program
    .command("dead-letters")
    .description("dead letters: list, show, and reissue or discard one or many (their review gates)");
  const filters = (c: Command) =>
    c
      .option("--reason <reason>", "a reason code or failure class (wrong_value …)")
      .option("--since <when>", "created within a duration (30m, 1h, 7d) or since an ISO date")
      .option("--run <run_id>", "of one run");
  filters(dl.command("list"))
    .description("the team's dead letters, oldest first (GET /v1/dead-letters)")
    .addOption(new Option("--status <status>", "default: open").choices(["open", "resolved", "all"]))
    .option("--limit <n>", "at most n (1-500, default 100)", int)
    .action(async (o: Filters, cmd: Command) => {
      const rows = await listed(await ctx.api(cmd), o);
      const shown = rows.map((r) => Object.fromEntries(LIST_COLUMNS.map((k) => [k, r[k as keyof DeadLetter]])));
      ctx.out(cmd, ctx.pretty(cmd) ? shown : { dead_letters: rows });
    });
  dl.command("show <dead_letter_id>")
    .description("one dead letter with its review gate: the input, output, reason, artifacts and digest")
    .action(async (id: string, _o, cmd: Command) => {
      const a = await ctx.api(cmd);
      ctx.out(cmd, await unwrap(a.v1["dead-letters"][":dead_letter_id"].$get({ param: { dead_letter_id: id } })));
    });
  for (const action of ["reissue", "discard"] as const) {
    const c = filters(dl.command(`${action} [dead_letter_id]`))
      .description(
        action === "reissue"
          ? "approve one attempt more: a wrong_value review's approve_retry (with --patch, the corrected input), else a dead_letter_reissue gate"
          : "resolve without a retry (a wrong_value review's approve_skip)",
      )
      .requiredOption("--note <note>", "why (recorded with the decision)")
      .option("--all", "every open dead letter (with the filters: every one they match)")
      .option("--yes", "confirm a bulk action without the prompt (needed when stdin is not a terminal)");
    if (action === "reissue") c.option("--patch <patch.json>", "a JSON merge patch to the order's input_json");
    c.action((id: string | undefined, o: ActOptions, cmd: Command) => act(ctx, cmd, action, id, o));
  }
}
