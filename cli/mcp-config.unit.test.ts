// `warden mcp config`: each client's snippet (URL, bearer from the saved login, an env var or --token), offline.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { credentialsPath, saveLogin } from "./credentials.ts";
import { mcpConfigSnippet } from "./mcp-config.ts";
import { runWarden } from "./warden-process.ts";

const cwd = mkdtempSync(join(tmpdir(), "warden-mcp-cwd-"));
const config = mkdtempSync(join(tmpdir(), "warden-mcp-xdg-"));
afterAll(() => {
  for (const d of [cwd, config]) rmSync(d, { recursive: true, force: true });
});

describe("mcpConfigSnippet", () => {
  it("writes Claude Code's .mcp.json entry with the /mcp URL and the bearer header", () => {
    const s = JSON.parse(mcpConfigSnippet("claude", "https://warden.example.com", { value: "wdn_live_abc" }));
    expect(s).toEqual({
      mcpServers: {
        warden: {
          type: "http",
          url: "https://warden.example.com/mcp",
          headers: { Authorization: "Bearer wdn_live_abc" },
        },
      },
    });
  });

  it("references an environment variable instead of the secret when asked", () => {
    const claude = JSON.parse(mcpConfigSnippet("claude", "http://localhost:8787", { envVar: "WARDEN_API_KEY" }));
    expect(claude.mcpServers.warden.headers.Authorization).toBe(`Bearer $${"{"}WARDEN_API_KEY}`);
    expect(mcpConfigSnippet("codex", "http://localhost:8787", { envVar: "WARDEN_API_KEY" })).toBe(
      '[mcp_servers.warden]\nurl = "http://localhost:8787/mcp"\nbearer_token_env_var = "WARDEN_API_KEY"',
    );
  });

  it("writes Codex's table with an http header when the secret is given", () => {
    expect(mcpConfigSnippet("codex", "http://localhost:8787/", { value: "t.o.k" })).toContain(
      'http_headers = { Authorization = "Bearer t.o.k" }',
    );
  });
});

describe("warden mcp config (the real process)", () => {
  const url = "http://127.0.0.1:9";
  const warden = (args: string[], env: Record<string, string> = {}) =>
    runWarden(["--url", url, "mcp", "config", ...args], { XDG_CONFIG_HOME: config, ...env }, cwd);

  it("refuses without credentials (exit 3) and prints no snippet", async () => {
    const r = await warden(["--client", "generic"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("warden login");
  });

  it("uses the API key of `warden login` for this URL", async () => {
    const key = `wdn_live_${"a".repeat(61)}`;
    saveLogin(
      url,
      { key, token: "x.y.z", expires_at: "2099-01-01T00:00:00Z" } as never,
      credentialsPath({ ...process.env, XDG_CONFIG_HOME: config }),
    );
    const r = await warden(["--client", "generic"]);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      name: "warden",
      transport: "streamable-http",
      url: `${url}/mcp`,
      headers: { Authorization: `Bearer ${key}` },
    });
  });

  it("refuses an unknown client as a usage error", async () => {
    const r = await warden(["--client", "cursor"]);
    expect(r.code).toBe(2);
  });
});
