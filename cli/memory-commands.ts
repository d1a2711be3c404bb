// The memory and session commands: `memory activate|write|query|rank|import` and `sessions record` (seed 002's
// session start and episodes; a need is only ever sent as its digest).
import { createHash, randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import { defined, int, jsonArg, list, readJsonFile } from "./args.ts";
import type { CommandContext } from "./board-commands.ts";
import { unwrap } from "./client.ts";
import { type CliEnv, CliExit, EXIT, progress } from "./io.ts";

/** The session kind of seed 002: WARDEN_AGENT_ID → warden.agent.<id>; WARDEN_SESSION_KIND; else warden.operator. */
export function sessionKind(env: CliEnv): string {
  const agent = env.WARDEN_AGENT_ID?.trim().toLowerCase();
  if (agent) return `warden.agent.${agent}`;
  return env.WARDEN_SESSION_KIND?.trim() || "warden.operator";
}
/** A need is only ever sent as a digest. */
export const fingerprint = (need: string) => `sha256:${createHash("sha256").update(need).digest("hex")}`;

/** `memory activate`: seed 002's session start, and its episode recorded with --outcome. */
function addActivateCommand(memory: Command, { io, api, out }: CommandContext): void {
  memory
    .command("activate")
    .description(
      "session start (seed 002): stabilized routes, recent episodes, hints; records the episode with --outcome",
    )
    .option("--json", "JSON output (the default; kept for agents' muscle memory)")
    .option("--query <text>", "what the session is about (used for hints)")
    .option("--need <text>", "the need; sent only as its sha256 fingerprint")
    .option("--need-fingerprint <digest>", "the need's digest, when already computed")
    .addOption(
      new Option("--outcome <outcome>", "record this session's episode").choices(["resolved", "escalated", "skipped"]),
    )
    .option("--command <command>", "the episode's command", "warden memory activate")
    .option("--route-id <route_id>", "the route taken (default: the covered route, else 'unrouted')")
    .option("--session-id <id>", "session id (default: a new uuid)")
    .option("--diagnostic-codes <list>", "comma-separated diagnostic codes", list, [])
    .action(async (o, cmd: Command) => {
      const kind = sessionKind(io.env);
      if (io.env.WARDEN_MEMORY === "0") {
        out(cmd, {
          disabled: true,
          reason: "WARDEN_MEMORY=0",
          session_kind: kind,
          stabilized_routes: [],
          recent_episodes: [],
          hints: [],
        });
        return;
      }
      const a = await api(cmd);
      const agentId = io.env.WARDEN_AGENT_ID?.trim().toLowerCase() || undefined;
      const need = o.needFingerprint ?? (o.need ? fingerprint(o.need) : undefined);
      const activation = await unwrap(
        a.v1.memory.activate.$post({
          json: defined({ session_kind: kind, agent_id: agentId, need_fingerprint: need, query: o.query }),
        }),
      );
      let recorded: unknown;
      if (o.outcome) {
        recorded = await unwrap(
          a.v1.sessions.events.$post({
            json: {
              schema: "phase_memory.ops_warden.session_event.v1",
              session_kind: kind,
              command: o.command,
              outcome: o.outcome,
              need_fingerprint: need ?? fingerprint(o.query ?? o.command),
              route_id: o.routeId ?? activation.covered_route ?? "unrouted",
              agent_id: agentId ?? (kind === "warden.operator" ? "operator" : kind),
              session_id: o.sessionId ?? randomUUID(),
              diagnostic_codes: o.diagnosticCodes,
            },
          }),
        );
      }
      out(cmd, { session_kind: kind, ...activation, ...(recorded ? { recorded } : {}) });
    });
}

/** `memory write` and `memory query`: one memory stored, memories ranked. */
function addWriteAndQueryCommands(memory: Command, { api, out, pretty }: CommandContext): void {
  memory
    .command("write")
    .description("store one memory (refused with exit 4 when it holds a secret, PII or a raw URL)")
    .requiredOption("--namespace <ns>", "team/<team_id>/...")
    .addOption(new Option("--class <class>").choices(["working", "episodic", "semantic", "kb"]).makeOptionMandatory())
    .requiredOption("--text <text>")
    .option("--tags <list>", "comma-separated tags", list)
    .option("--metadata <json>", "JSON object", jsonArg)
    .option("--pinned", "exempt from decay")
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      out(
        cmd,
        await unwrap(
          a.v1.memory.$post({
            json: defined({
              namespace: o.namespace,
              class: o.class,
              text: o.text,
              tags: o.tags,
              metadata: o.metadata,
              pinned: o.pinned,
            }),
          }),
        ),
      );
    });
  memory
    .command("query")
    .description("rank memories by similarity × importance × recency")
    .requiredOption("--namespaces <list>", "comma-separated namespaces", list)
    .requiredOption("--text <text>")
    .option("--top-k <n>", "how many", int)
    .option("--classes <list>", "comma-separated classes", list)
    .action(async (o, cmd: Command) => {
      const a = await api(cmd);
      const r = await unwrap(
        a.v1.memory.query.$post({
          json: defined({ namespaces: o.namespaces, text: o.text, top_k: o.topK, classes: o.classes }),
        }),
      );
      out(cmd, pretty(cmd) ? r.results : r);
    });
}

/** `memory import`: rigid memory from a JSON file, sent 100 entries a call. */
function addImportCommand(memory: Command, { io, api, out }: CommandContext): void {
  memory
    .command("import <file>")
    .description(
      "import rigid memory (charter/allowlist) from a JSON file {namespace, kind, entries[], replace?}; 100 entries a call",
    )
    .action(async (file: string, _o, cmd: Command) => {
      const body = readJsonFile(file, io.cwd) as {
        namespace?: string;
        kind?: string;
        entries?: unknown[];
        replace?: boolean;
      };
      if (!Array.isArray(body.entries)) throw new CliExit(EXIT.usage, `${file}: entries must be an array`);
      const a = await api(cmd);
      const bar = progress(io.stderr, body.entries.length, "importing");
      const result = { imported: 0, ids: [] as string[], archived: [] as string[] };
      for (let i = 0; i < body.entries.length || i === 0; i += 100) {
        const chunk = body.entries.slice(i, i + 100);
        const r = await unwrap(
          a.v1.memory.import.$post({
            json: { ...body, entries: chunk, replace: i === 0 ? body.replace : false } as never,
          }),
        );
        result.imported += r.imported;
        result.ids.push(...r.ids);
        result.archived.push(...r.archived);
        bar.tick(chunk.length);
        if (body.entries.length === 0) break;
      }
      bar.end();
      out(cmd, result);
    });
}

/** `sessions record`: one session_event.v1 episode. */
function addSessionCommands(program: Command, { io, api, out }: CommandContext): void {
  program
    .command("sessions")
    .description("ops-warden session episodes")
    .command("record")
    .description(
      "record one session_event.v1 episode; a session that tries several routes posts one per route, numbered by " +
        "--episode-index (tried → failed → fallback resolved: 0, 1), each escalation with its --failure-cause",
    )
    .requiredOption("--command <command>")
    .addOption(new Option("--outcome <outcome>").choices(["resolved", "escalated", "skipped"]).makeOptionMandatory())
    .option("--need <text>", "the need; sent only as its sha256 fingerprint")
    .option("--need-fingerprint <digest>")
    .requiredOption("--route-id <route_id>")
    .option("--session-id <id>", "default: a new uuid")
    .option("--agent-id <id>", "default: WARDEN_AGENT_ID or operator")
    .option("--session-kind <kind>", "default: from WARDEN_AGENT_ID / WARDEN_SESSION_KIND")
    .option("--diagnostic-codes <list>", "comma-separated", list, [])
    .addOption(
      new Option(
        "--failure-cause <cause>",
        "escalated only: route (wrong route), environment (noise), unknown",
      ).choices(["route", "environment", "unknown"]),
    )
    .option("--episode-index <n>", "the episode's place in its session, 0 first", int)
    .option("--activation-id <id>", "the activation_id `warden memory activate` answered for this session")
    .addOption(new Option("--route-source <source>", "where the route came from").choices(["memory", "reasoned"]))
    .action(async (o, cmd: Command) => {
      const need = o.needFingerprint ?? (o.need ? fingerprint(o.need) : undefined);
      if (!need) throw new CliExit(EXIT.usage, "give --need or --need-fingerprint");
      const a = await api(cmd);
      out(
        cmd,
        await unwrap(
          a.v1.sessions.events.$post({
            json: {
              schema: "phase_memory.ops_warden.session_event.v1",
              session_kind: o.sessionKind ?? sessionKind(io.env),
              command: o.command,
              outcome: o.outcome,
              need_fingerprint: need,
              route_id: o.routeId,
              agent_id: o.agentId ?? (io.env.WARDEN_AGENT_ID?.trim().toLowerCase() || "operator"),
              session_id: o.sessionId ?? randomUUID(),
              diagnostic_codes: o.diagnosticCodes,
              ...defined({
                failure_cause: o.failureCause,
                episode_index: o.episodeIndex,
                activation_id: o.activationId,
                route_source: o.routeSource,
              }),
            },
          }),
        ),
      );
    });
}

/** Registers `memory` and `sessions` and their commands. */
export function registerMemoryCommands(program: Command, context: CommandContext): void {
  const memory = program.command("memory").description("team memory: activate, write, query, import");
  addActivateCommand(memory, context);
  addWriteAndQueryCommands(memory, context);
  addImportCommand(memory, context);
  addSessionCommands(program, context);
}
