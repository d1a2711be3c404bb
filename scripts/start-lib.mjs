// What `npm start` hands to `wrangler dev` (the port given sets PUBLIC_URL) and how it tidies wrangler's output to one line per fact.
import { stripVTControlCharacters } from "node:util";

/** The value following `flag` in `args` (undefined when absent). */
const flagValue = (args, flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

/**
 * Where the server's links should point: PUBLIC_URL as set explicitly (the environment, a `--var PUBLIC_URL:…` given
 * to start, or .dev.vars), else the port and address actually served (`--port`, default 8787; `--ip`, default localhost).
 * `source` says which, for the start line.
 */
export function publicUrlFor(args, env = {}, devVars = {}) {
  const given = args.find((a, i) => args[i - 1] === "--var" && a.startsWith("PUBLIC_URL:"));
  if (given) return { url: given.slice("PUBLIC_URL:".length), source: "--var" };
  if (env.PUBLIC_URL) return { url: env.PUBLIC_URL, source: "PUBLIC_URL" };
  if (devVars.PUBLIC_URL) return { url: devVars.PUBLIC_URL, source: ".dev.vars" };
  const ip = flagValue(args, "--ip");
  const host = !ip || ip === "0.0.0.0" || ip === "::" ? "localhost" : ip.includes(":") ? `[${ip}]` : ip;
  return { url: `http://${host}:${flagValue(args, "--port") ?? "8787"}`, source: "port" };
}

/** The `wrangler dev` arguments: test-scheduled, port 8787 unless given, and PUBLIC_URL unless .dev.vars sets it. */
export function wranglerDevArgs(args, env = {}, devVars = {}) {
  const port = args.includes("--port") ? [] : ["--port", "8787"];
  const { url, source } = publicUrlFor(args, env, devVars);
  // .dev.vars is read by wrangler itself; a --var given to start is passed on as it is
  const publicUrl = source === ".dev.vars" || source === "--var" ? [] : ["--var", `PUBLIC_URL:${url}`];
  // a local server is not behind Cloudflare: CF-Connecting-IP is whatever a caller sends, so it keys no bucket
  const local = ["--var", "BEHIND_CLOUDFLARE:false"];
  return ["dev", "--test-scheduled", ...port, ...publicUrl, ...local, ...args];
}

/** The notice that replaces wrangler's offline `Request.cf` warning and its stack trace. */
export const OFFLINE_NOTICE =
  "offline: wrangler could not fetch the Request.cf data (workers.cloudflare.com); harmless, a placeholder is used";
/** The notice that replaces wrangler's "types might be out of date". */
export const TYPES_NOTICE =
  "note: worker-configuration.d.ts was generated with another workerd (`npm run types` refreshes it); harmless for npm start";

/**
 * A line filter over wrangler dev's stdout and stderr (one instance for both): the banner without the update check, the
 * bindings table once, the offline `Request.cf` warning as one line once (its stack trace dropped), the types note as
 * one line. Returns the lines to print for one line of wrangler's output (often none).
 */
export function startOutputFilter() {
  let tablesSeen = 0;
  let inTable = false;
  let offlineSaid = false;
  let inStack = false;
  return (raw) => {
    const line = stripVTControlCharacters(raw);
    if (inStack && (/^\s+at /.test(line) || /^Error: getaddrinfo/.test(line))) return [];
    inStack = false;
    if (inTable) {
      if (line.trim() === "") {
        inTable = false;
        return tablesSeen === 1 ? [raw] : [];
      }
      return tablesSeen === 1 ? [raw] : [];
    }
    if (/^Your Worker has access to the following bindings/.test(line)) {
      tablesSeen++;
      inTable = true;
      return tablesSeen === 1 ? [raw] : [];
    }
    if (/Unable to fetch the `Request\.cf` object/.test(line)) {
      inStack = true;
      if (offlineSaid) return [];
      offlineSaid = true;
      return [OFFLINE_NOTICE];
    }
    if (/types might be out of date/.test(line)) return [TYPES_NOTICE];
    if (/^\s*⛅️ wrangler/.test(line)) return [line.replace(/\s*\(update available [^)]*\)/, "").trim()];
    if (/^─+$/.test(line.trim()) || /^⎔ Connection status updated/.test(line)) return [];
    return [raw];
  };
}
