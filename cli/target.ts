// Which server a CLI command talks to and which saved login it uses: never a silent default, loopback spellings matched.
import type { Login } from "./credentials.ts";
import { CliExit, EXIT } from "./io.ts";

/** Where the server URL came from (printed by --verbose). */
export type UrlSource = "--url" | "WARDEN_URL" | "saved login";

export type Target = {
  /** the server every request goes to */
  url: string;
  source: UrlSource;
  /** the saved login used for it, with the URL it was saved under (which may spell the same server differently) */
  login?: { url: string; login: Login };
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The server a URL names, loopback spellings made one (`http://127.0.0.1:8787` and `http://localhost:8787/` match). */
export function serverKey(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const host = LOOPBACK.has(u.hostname) ? "loopback" : u.hostname;
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return `${u.protocol}//${host}:${port}${u.pathname.replace(/\/+$/, "")}`;
}

const HOW_TO =
  "say which Warden server to use: `--url http://localhost:8787`, `export WARDEN_URL=…`, or `warden login --url … --key wdn_live_…` once";

/**
 * The target of a command from the URL given (flag or WARDEN_URL) and the saved logins. Without a URL, the one saved
 * login's server; none or several → a usage failure (exit 2) that says how to choose. A given URL uses the saved
 * login of the same server, however its loopback host is spelled.
 */
export function resolveTarget(
  given: { url?: string | undefined; source: "--url" | "WARDEN_URL" | undefined },
  logins: Record<string, Login>,
): Target {
  const saved = Object.entries(logins);
  if (!given.url || !given.source) {
    if (saved.length === 1) {
      const [url, login] = saved[0] as [string, Login];
      return { url, source: "saved login", login: { url, login } };
    }
    if (saved.length === 0) throw new CliExit(EXIT.usage, `no server given: ${HOW_TO}`);
    throw new CliExit(
      EXIT.usage,
      `no server given and ${saved.length} saved logins (${saved.map(([u]) => u).join(", ")}): pick one with --url or WARDEN_URL`,
    );
  }
  const key = serverKey(given.url);
  if (!key) throw new CliExit(EXIT.usage, `${given.source} ${given.url} is not an http(s) URL: ${HOW_TO}`);
  const url = given.url.replace(/\/+$/, "");
  const exact = logins[url];
  if (exact) return { url, source: given.source, login: { url, login: exact } };
  const same = saved.find(([u]) => serverKey(u) === key);
  return same ? { url, source: given.source, login: { url: same[0], login: same[1] } } : { url, source: given.source };
}
