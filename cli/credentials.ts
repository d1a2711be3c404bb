// `warden login`'s saved credentials: one entry per server URL (API key + the last token) in a file only the user reads.
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CachedToken, TokenCache } from "../src/client/index.ts";

/** A saved login: the key is kept so later commands can exchange it again when the token nears expiry. */
export type Login = CachedToken & { key: string; scopes?: string[]; ttl_s?: number };

/** `$XDG_CONFIG_HOME/warden/credentials.json`, else `~/.config/warden/credentials.json`. */
export function credentialsPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config");
  return join(base, "warden", "credentials.json");
}

const normal = (url: string) => url.replace(/\/+$/, "");

function readAll(path: string): Record<string, Login> {
  if (!existsSync(path)) return {};
  try {
    const v = JSON.parse(readFileSync(path, "utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Written to a temporary file (mode 0600) and renamed, so a crash never leaves a half-written or readable file. */
function writeAll(path: string, all: Record<string, Login>): void {
  const dir = join(path, "..");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // unique per write: two CLI runs in one process (the in-process tests) never share a temporary file
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** Every saved login, by the server URL it was saved for. */
export const allLogins = (path: string): Record<string, Login> => readAll(path);

export function loadLogin(url: string, path: string): Login | undefined {
  return readAll(path)[normal(url)];
}

export function saveLogin(url: string, login: Login, path: string): void {
  writeAll(path, { ...readAll(path), [normal(url)]: login });
}

/** Forgets the login for one URL; answers whether there was one. Removes the file when it is left empty. */
export function removeLogin(url: string, path: string): boolean {
  const all = readAll(path);
  if (!(normal(url) in all)) return false;
  delete all[normal(url)];
  if (Object.keys(all).length === 0) rmSync(path, { force: true });
  else writeAll(path, all);
  return true;
}

/** The token cache of a client session, backed by the saved login (the key and its options stay as they were). */
export function fileTokenCache(url: string, login: Login, path: string): TokenCache {
  return {
    load: () => loadLogin(url, path),
    save: (t) => saveLogin(url, { key: login.key, scopes: login.scopes, ttl_s: login.ttl_s, ...t }, path),
  };
}
