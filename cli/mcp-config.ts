// `warden mcp config [--client claude|codex|generic]`: the snippet that adds Warden's MCP endpoint to an agent client.
import { type Command, Option } from "commander";
import { credentialsPath, loadLogin } from "./credentials.ts";
import { CliExit, type CliIo, EXIT } from "./io.ts";

export const MCP_CLIENTS = ["claude", "codex", "generic"] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** Where the bearer comes from: written into the snippet, or named as an environment variable the client expands. */
export type McpBearer = { value: string } | { envVar: string };

/**
 * The snippet for one client: Claude Code's `.mcp.json` (type http, headers; `${VAR}` is expanded by Claude Code),
 * Codex's `~/.codex/config.toml` table (streamable HTTP url, bearer_token_env_var or http_headers), or plain JSON.
 */
export function mcpConfigSnippet(client: McpClient, baseUrl: string, bearer: McpBearer): string {
  const url = new URL("/mcp", baseUrl).toString();
  const header = "envVar" in bearer ? `Bearer \${${bearer.envVar}}` : `Bearer ${bearer.value}`;
  switch (client) {
    case "claude":
      return JSON.stringify(
        { mcpServers: { warden: { type: "http", url, headers: { Authorization: header } } } },
        null,
        2,
      );
    case "codex": {
      const auth =
        "envVar" in bearer
          ? `bearer_token_env_var = ${JSON.stringify(bearer.envVar)}`
          : `http_headers = { Authorization = ${JSON.stringify(header)} }`;
      return `[mcp_servers.warden]\nurl = ${JSON.stringify(url)}\n${auth}`;
    }
    case "generic":
      return JSON.stringify(
        { name: "warden", transport: "streamable-http", url, headers: { Authorization: header } },
        null,
        2,
      );
  }
}

/**
 * The bearer for the snippet: --env-var names a variable; else the API key of `warden login` for this URL (the /mcp
 * endpoint exchanges it in place, so the snippet does not expire with a 15-minute token); else --token/WARDEN_TOKEN.
 */
function bearerFor(url: string, o: { envVar?: string; token?: string }, credentials: string): McpBearer {
  if (o.envVar) return { envVar: o.envVar };
  const login = loadLogin(url, credentials);
  if (login) return { value: login.key };
  if (o.token) return { value: o.token };
  throw new CliExit(
    EXIT.auth,
    "no credentials for the snippet: run `warden login --key wdn_live_…` (the key is used), pass --env-var WARDEN_API_KEY, or --token",
  );
}

export function registerMcpCommands(program: Command, io: CliIo): void {
  const mcp = program.command("mcp").description("Warden as an MCP server (POST /mcp) for coding agents");
  mcp
    .command("config")
    .description(
      "print the snippet that adds Warden's MCP endpoint to a client (Claude Code .mcp.json, Codex config.toml, or generic JSON)",
    )
    .addOption(new Option("--client <client>", "the MCP client").choices(MCP_CLIENTS).default("generic"))
    .option("--env-var <name>", "reference this environment variable for the bearer instead of writing the secret")
    .action((o: { client: McpClient; envVar?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals() as { url: string; token?: string };
      const bearer = bearerFor(g.url, { ...o, ...(g.token ? { token: g.token } : {}) }, credentialsPath(io.env));
      io.stdout.write(`${mcpConfigSnippet(o.client, g.url, bearer)}\n`);
    });
}
