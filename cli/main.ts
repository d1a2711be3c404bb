// The `warden` CLI: every agent decision point of the API as a command (commander), over the typed client.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Command, CommanderError, Option } from "commander";
import { decodeJwt } from "jose";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs and scripts/token.ts
import { readDevVars } from "../scripts/dev-vars.mjs";
// the scopes from their import-free home, so that --help and usage errors never compile the typed client and zod
// (cli/client.ts loads them when a command first calls the server)
import { SCOPES } from "../src/auth/scopes.ts";
import type { Scope } from "../src/client/index.ts";
import { registerAdminCommands } from "./admin-commands.ts";
import { defined, int, jsonArg, list, readJsonFile } from "./args.ts";
import { type CommandContext, registerBoardCommands } from "./board-commands.ts";
import { client, isWardenError, unwrap } from "./client.ts";
import { allLogins, credentialsPath, fileTokenCache, type Login, removeLogin, saveLogin } from "./credentials.ts";
import { registerDeadLetterCommands } from "./dead-letters.ts";
import { EnvCommand } from "./env-command.ts";
import { CliExit, type CliIo, EXIT, EXIT_HELP, exitCodeFor, print } from "./io.ts";
import { registerMcpCommands } from "./mcp-config.ts";
import { registerMemoryCommands } from "./memory-commands.ts";
import { registerPolicyCommands } from "./policy-commands.ts";
import { registerRunCommands } from "./run-commands.ts";
import { resolveTarget, type Target } from "./target.ts";

export const ALL_SCOPES: Scope[] = [...SCOPES];

type Globals = { url?: string; token?: string; pretty?: boolean; team?: string; verbose?: boolean };

/** A token from the saved login for this URL, exchanged again when less than a minute of it is left. */
async function loginToken(io: CliIo, url: string, login: Login): Promise<string> {
  const { createTokenSession, WardenError } = await client();
  const session = createTokenSession({
    baseUrl: url,
    key: login.key,
    scopes: login.scopes,
    ttlS: login.ttl_s,
    cache: fileTokenCache(url, login, credentialsPath(io.env)),
  });
  try {
    const t = await session.token();
    const warning = session.current()?.warning;
    if (warning) io.stderr.write(`${JSON.stringify({ warning })}\n`);
    return t;
  } catch (e) {
    if (e instanceof WardenError && e.status === 401)
      throw new CliExit(EXIT.auth, `the saved API key was refused (${e.message}): run \`warden login --key …\` again`);
    throw e;
  }
}

/** A command's credentials: the token and where it came from (printed by --verbose). */
type Credentials = { token: string; from: string };

async function credentialsFor(io: CliIo, g: Globals, target: Target): Promise<Credentials> {
  if (g.token) return { token: g.token, from: io.env.WARDEN_TOKEN === g.token ? "WARDEN_TOKEN" : "--token" };
  if (target.login)
    return {
      token: await loginToken(io, target.login.url, target.login.login),
      from: `saved login ${target.login.url}`,
    };
  const devVars = join(io.cwd, ".dev.vars");
  if (existsSync(devVars)) {
    const { WARDEN_JWT_SECRET } = readDevVars(devVars) as { WARDEN_JWT_SECRET?: string };
    if (WARDEN_JWT_SECRET) {
      if (!g.team)
        throw new CliExit(
          EXIT.usage,
          "no team for a local token: pass --team <team_id> or set WARDEN_TEAM (the token is minted from ./.dev.vars)",
        );
      const token = await (await client()).mintToken({
        secret: WARDEN_JWT_SECRET,
        teamId: g.team,
        scopes: ALL_SCOPES,
        sub: io.env.WARDEN_SUB ?? "warden-cli",
      });
      return { token, from: "./.dev.vars" };
    }
  }
  const saved = Object.keys(allLogins(credentialsPath(io.env)));
  throw new CliExit(
    EXIT.auth,
    `no token for ${target.url}: run \`warden login --url ${target.url} --key wdn_live_…\`, set WARDEN_TOKEN (or --token), or run where .dev.vars holds WARDEN_JWT_SECRET${saved.length ? ` (saved logins are for ${saved.join(", ")})` : ""}`,
  );
}

/** The team a bearer token names (read, not verified: only to say which team a command used). */
function teamOf(token: string): string | null {
  try {
    const team = decodeJwt(token).team_id;
    return typeof team === "string" ? team : null;
  } catch {
    return null;
  }
}

/** The program's own options and output (everything through `io`), before any command is added. */
function newProgram(io: CliIo): Command {
  return new EnvCommand("warden", io.env)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // undefined (not a terminal): commander's default width, as for a pipe; its type says number only
      getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) as number,
      getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .description("Warden's command line: decisions, gates, leases, memory and learning for agent runs")
    .addOption(new Option("--url <url>", "Warden base URL (else the one saved login's)").env("WARDEN_URL"))
    .addOption(new Option("--token <jwt>", "bearer token").env("WARDEN_TOKEN"))
    .addOption(new Option("--team <team_id>", "team for a token minted from ./.dev.vars").env("WARDEN_TEAM"))
    .option("--pretty", "human-readable tables instead of JSON")
    .option("--verbose", "print the server, team and credentials used on stderr")
    .addHelpText("after", EXIT_HELP)
    .exitOverride()
    .showHelpAfterError(false);
}

/** What the commands of this file need beyond `CommandContext`: the global flags and the server they name. */
type ProgramContext = CommandContext & { globals: (cmd: Command) => Globals; target: (cmd: Command) => Target };

/** How a command reaches the program's globals, its server and credentials, the typed client and the output. */
function programContext(program: Command, io: CliIo): ProgramContext {
  const globals = (cmd: Command) => cmd.optsWithGlobals() as Globals;
  const target = (cmd: Command) => {
    const from = program.getOptionValueSource("url");
    const source = from === "cli" ? "--url" : from === "env" ? "WARDEN_URL" : undefined;
    return resolveTarget({ url: globals(cmd).url, source }, allLogins(credentialsPath(io.env)));
  };
  // channel cli: a gate decision made here is recorded as the CLI's (X-Warden-Channel)
  const api = async (cmd: Command) => {
    const t = target(cmd);
    const { token, from } = await credentialsFor(io, globals(cmd), t);
    if (globals(cmd).verbose)
      io.stderr.write(
        `${JSON.stringify({ server: t.url, server_from: t.source, team: teamOf(token), credentials: from })}\n`,
      );
    return (await client()).createApi({ baseUrl: t.url, token, channel: "cli" });
  };
  const out = (cmd: Command, v: unknown) => print(io.stdout, v, globals(cmd).pretty === true);
  return { io, api, out, pretty: (cmd: Command) => globals(cmd).pretty === true, globals, target };
}

/** `login` and `logout`: an API key exchanged for a token and saved per URL, and forgotten again. */
function addLoginCommands(program: Command, { io, out, globals, target }: ProgramContext): void {
  program
    .command("login")
    .description(
      `exchange an API key for a token (POST /v1/tokens) and save both for this URL in ${credentialsPath(io.env)} (mode 0600); later commands refresh the token before it expires`,
    )
    .addOption(new Option("--key <key>", "the API key (wdn_live_…)").env("WARDEN_API_KEY").makeOptionMandatory())
    .option("--scopes <list>", "ask for fewer scopes than the key holds", list)
    .option("--ttl <seconds>", "token lifetime, at most 900", int)
    .action(async (o, cmd: Command) => {
      const { parseApiKey } = await import("../src/auth/key-format.ts");
      const parsed = parseApiKey(o.key);
      if (!parsed.ok) throw new CliExit(EXIT.usage, `${parsed.error}: check the key you pasted`);
      if (o.ttl !== undefined && (o.ttl < 1 || o.ttl > 900))
        throw new CliExit(EXIT.usage, "--ttl must be 1..900 seconds");
      const { url } = globals(cmd);
      if (!url) throw new CliExit(EXIT.usage, "warden login needs the server: --url https://… (or WARDEN_URL)");
      const session = (await client()).createTokenSession({ baseUrl: url, key: o.key, scopes: o.scopes, ttlS: o.ttl });
      await session.token();
      const got = session.current() as NonNullable<ReturnType<typeof session.current>>;
      const login: Login = { key: o.key, ...defined({ scopes: o.scopes, ttl_s: o.ttl }), ...got };
      saveLogin(url, login, credentialsPath(io.env));
      out(cmd, {
        logged_in: true,
        url,
        credentials: credentialsPath(io.env),
        token_expires_at: got.expires_at,
        key_expires_at: got.key_expires_at ?? null,
        ...(got.warning ? { warning: got.warning } : {}),
      });
    });
  program
    .command("logout")
    .description("forget the saved login for this URL")
    .action(async (_o, cmd: Command) => {
      const t = target(cmd);
      out(cmd, { logged_out: removeLogin(t.login?.url ?? t.url, credentialsPath(io.env)) });
    });
}

/** `token mint`: a local token minted from ./.dev.vars. */
function addTokenCommands(program: Command, io: CliIo): void {
  const token = program.command("token").description("capability tokens");
  token
    .command("mint")
    .description("mint a local token from ./.dev.vars (HS256, ≤ 900 s); prints the token")
    .requiredOption("--team-id <team_id>", "team the token belongs to")
    .option("--scopes <list>", "comma-separated scopes", list, ALL_SCOPES)
    .option("--sub <subject>", "caller identity (the approver name)")
    .option("--run-id <run_id>")
    .option("--task-id <task_id>")
    .option("--persona-id <persona_id>")
    .option("--ttl <seconds>", "lifetime, at most 900", int, 900)
    .option("--json", "print {token, expires_at} instead of the bare token")
    .action(async (o) => {
      const devVars = join(io.cwd, ".dev.vars");
      if (!existsSync(devVars))
        throw new CliExit(EXIT.usage, "no .dev.vars here: run `npm start` once (it creates it)");
      const { WARDEN_JWT_SECRET } = readDevVars(devVars) as { WARDEN_JWT_SECRET?: string };
      if (!WARDEN_JWT_SECRET) throw new CliExit(EXIT.usage, ".dev.vars has no WARDEN_JWT_SECRET");
      const bad = (o.scopes as string[]).filter((s) => !(ALL_SCOPES as string[]).includes(s));
      if (bad.length) throw new CliExit(EXIT.usage, `unknown scope(s): ${bad.join(", ")}`);
      if (o.ttl < 1 || o.ttl > 900) throw new CliExit(EXIT.usage, "--ttl must be 1..900 seconds");
      const now = Math.floor(Date.now() / 1000);
      const jwt = await (await client()).mintToken({
        secret: WARDEN_JWT_SECRET,
        teamId: o.teamId,
        scopes: o.scopes,
        sub: o.sub,
        runId: o.runId,
        taskId: o.taskId,
        personaId: o.personaId,
        lifetimeSeconds: o.ttl,
        nowSeconds: now,
      });
      if (o.json) print(io.stdout, { token: jwt, expires_at: new Date((now + o.ttl) * 1000).toISOString() }, false);
      else io.stdout.write(`${jwt}\n`);
    });
}

/** `gates list|approve|deny|ack|sla`: approval gates. */
function addGateCommands(program: Command, { io, api, out, pretty }: ProgramContext): void {
  const gates = program.command("gates").description("approval gates: list open ones, acknowledge, approve, deny");
  gates
    .command("list")
    .description("the team's open gates, oldest first (GET /v1/gates?status=open)")
    .action(async (_o, cmd: Command) => {
      const a = await api(cmd);
      const r = await unwrap(a.v1.gates.$get({ query: { status: "open" } }));
      out(cmd, pretty(cmd) ? r.gates : r);
    });
  for (const [name, decision, what] of [
    ["approve", "approve_retry", "approve a gate (--decision approve_skip|approve_abort to skip or abort instead)"],
    ["deny", "deny", "deny a gate"],
  ] as const) {
    const c = gates
      .command(`${name} <gate_id>`)
      .description(what)
      .option(
        "--note <note>",
        "why (required for hard gates); an enforce promotion's note carries ack:<class> for each class in its gate's acks_required",
      );
    if (name === "approve")
      c.addOption(
        new Option("--decision <decision>")
          .choices(["approve_retry", "approve_skip", "approve_abort"])
          .default(decision),
      );
    c.action(async (gateId: string, o, cmd: Command) => {
      const a = await api(cmd);
      const json = { decision: (o.decision ?? decision) as typeof decision, ...defined({ note: o.note as string }) };
      out(cmd, await unwrap(a.v1.gates[":gate_id"].decision.$post({ param: { gate_id: gateId }, json })));
    });
  }
  gates
    .command("ack <gate_id>")
    .description(
      "acknowledge an open gate: you are on it, its escalation pings pause until its resolve SLA is due (POST /v1/gates/:gate_id/ack)",
    )
    .action(async (gateId: string, _o, cmd: Command) => {
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.gates[":gate_id"].ack.$post({ param: { gate_id: gateId } })));
    });
  gates
    .command("sla")
    .description(
      "the team's gate SLAs: time zone, business hours, minutes to acknowledge, resolve SLA per severity (GET /v1/gates/sla); --file sets them (PUT, policy:admin)",
    )
    .option("--file <sla.json>", "replace them with this JSON (all fields; docs/slack.md, Gate SLAs)")
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      if (o.file) out(cmd, await unwrap(a.v1.gates.sla.$put({ json: readJsonFile(o.file, io.cwd) as never })));
      else out(cmd, await unwrap(a.v1.gates.sla.$get()));
    });
}

/** `events send`, `slack override` and `overview-url`: one command each. */
function addSingleCommands(program: Command, { io, api, out }: ProgramContext): void {
  program
    .command("events")
    .description("task and run events for the learning consumer")
    .command("send")
    .description("send one task_event.v1 (flags, or --file event.json)")
    .option("--file <event.json>")
    .addOption(new Option("--type <type>").choices(["task.failed", "task.blocked", "task.completed", "run.completed"]))
    .option("--event-id <id>", "default: a new uuid")
    .option("--run-id <run_id>")
    .option("--task-id <task_id>")
    .option("--skill <skill>")
    .option("--reason <bucket>")
    .option("--failure-class <class>")
    .option("--extra <json>", "more fields, as a JSON object", jsonArg)
    .action(async (o, cmd: Command) => {
      const fromFile = o.file ? (readJsonFile(o.file, io.cwd) as Record<string, unknown>) : {};
      const event = {
        ...fromFile,
        ...defined({
          event_id: o.eventId,
          type: o.type,
          run_id: o.runId,
          task_id: o.taskId,
          skill: o.skill,
          reason: o.reason,
          failure_class: o.failureClass,
        }),
        ...(o.extra ?? {}),
      };
      if (event.type === undefined || event.run_id === undefined)
        throw new CliExit(EXIT.usage, "give --type and --run-id (or --file)");
      event.event_id ??= randomUUID();
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.events.$post({ json: event as never })));
    });

  program
    .command("slack")
    .description("Slack: the approval-outage override")
    .command("override")
    .description(
      "turn the approval-outage fallback off (POST /v1/slack/outage/override): the first admin requests, a second, different admin confirms",
    )
    .requiredOption("--reason <reason>", "why (audited)")
    .option("--ttl-minutes <n>", "how long once confirmed (1-240, default 60)", int)
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      const json = { reason: o.reason as string, ...defined({ ttl_minutes: o.ttlMinutes as number | undefined }) };
      out(cmd, await unwrap(a.v1.slack.outage.override.$post({ json })));
    });

  program
    .command("overview-url")
    .description("a signed read-only team overview URL (POST /v1/views, ≤ 15 min)")
    .action(async (_o, cmd: Command) => {
      const a = await api(cmd);
      out(cmd, await unwrap(a.v1.views.$post({ json: { kind: "team" } })));
    });
}

/** The whole program for one run: every command reads and writes through `io` only. */
export function buildProgram(io: CliIo): Command {
  const program = newProgram(io);
  const context = programContext(program, io);
  registerMcpCommands(program, io);
  addLoginCommands(program, context);
  addTokenCommands(program, io);
  registerMemoryCommands(program, context);
  const runs = registerRunCommands(program, context);
  registerBoardCommands(program, runs, context);
  registerDeadLetterCommands(program, context);
  registerAdminCommands(program, context, async (cmd) =>
    teamOf((await credentialsFor(io, context.globals(cmd), context.target(cmd))).token),
  );
  registerPolicyCommands(program, context);
  addGateCommands(program, context);
  addSingleCommands(program, context);
  return program;
}

/**
 * Runs the CLI once and answers its exit code (errors as JSON on stderr). Everything outside `argv` comes from `io`:
 * the bin passes the process's env, cwd and streams; tests run it in-process with their own. It never exits.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.help" || e.code === "commander.version")
        return EXIT.ok;
      return EXIT.usage; // commander has printed the message
    }
    if (e instanceof CliExit) {
      io.stderr.write(
        `${JSON.stringify({ error: { code: e.code === EXIT.auth ? "unauthorized" : e.code === EXIT.refused ? "refused" : "usage", message: e.message } })}\n`,
      );
      return e.code;
    }
    if (isWardenError(e)) {
      io.stderr.write(
        `${JSON.stringify({ error: { status: e.status, code: e.code, message: e.message, request_id: e.requestId, details: e.details } })}\n`,
      );
      return exitCodeFor(e);
    }
    io.stderr.write(
      `${JSON.stringify({ error: { code: "internal", message: String((e as Error)?.message ?? e) } })}\n`,
    );
    return EXIT.failure;
  }
}
