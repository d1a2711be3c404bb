// npm start's pure parts: the port given sets PUBLIC_URL unless it is set explicitly; wrangler's start-up output tidied
// to one line per fact (a real `wrangler dev` start-up, offline, recorded in test/fixtures/wrangler-dev-start.txt).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper of scripts/start.mjs
import { OFFLINE_NOTICE, publicUrlFor, startOutputFilter, TYPES_NOTICE, wranglerDevArgs } from "./start-lib.mjs";

/** The PUBLIC_URL `--var`s passed to wrangler dev. */
const varOf = (args: string[]) => args.filter((a, i) => args[i - 1] === "--var" && a.startsWith("PUBLIC_URL:"));

describe("PUBLIC_URL of npm start", () => {
  it("follows the port (and address) given", () => {
    expect(publicUrlFor([])).toEqual({ url: "http://localhost:8787", source: "port" });
    expect(publicUrlFor(["--port", "8790"]).url).toBe("http://localhost:8790");
    expect(publicUrlFor(["--port", "8790", "--ip", "127.0.0.1"]).url).toBe("http://127.0.0.1:8790");
    expect(publicUrlFor(["--ip", "0.0.0.0", "--port", "9000"]).url).toBe("http://localhost:9000");
    expect(varOf(wranglerDevArgs(["--port", "8790"]))).toEqual(["PUBLIC_URL:http://localhost:8790"]);
    expect(wranglerDevArgs([]).slice(0, 4)).toEqual(["dev", "--test-scheduled", "--port", "8787"]);
  });

  it("tells the Worker it is not behind Cloudflare (CF-Connecting-IP keys no bucket locally)", () => {
    const args = wranglerDevArgs(["--port", "8790"]);
    expect(args.filter((a, i) => args[i - 1] === "--var" && a.startsWith("BEHIND_CLOUDFLARE:"))).toEqual([
      "BEHIND_CLOUDFLARE:false",
    ]);
  });

  it("keeps a PUBLIC_URL set explicitly: environment, --var or .dev.vars", () => {
    const env = { PUBLIC_URL: "https://warden.example.com" };
    expect(varOf(wranglerDevArgs(["--port", "8790"], env))).toEqual(["PUBLIC_URL:https://warden.example.com"]);
    const given = ["--port", "8790", "--var", "PUBLIC_URL:https://x.example"];
    expect(varOf(wranglerDevArgs(given))).toEqual(["PUBLIC_URL:https://x.example"]);
    expect(publicUrlFor(given)).toEqual({ url: "https://x.example", source: "--var" });
    expect(varOf(wranglerDevArgs(["--port", "8790"], {}, { PUBLIC_URL: "https://d.example" }))).toEqual([]);
  });
});

describe("npm start's output", () => {
  const recorded = readFileSync(join(import.meta.dirname, "../test/fixtures/wrangler-dev-start.txt"), "utf8")
    .trimEnd()
    .split("\n");
  const tidied = () => {
    const tidy = startOutputFilter();
    return recorded.flatMap((l) => tidy(l) as string[]);
  };

  it("prints the bindings table once, the offline notice as one line, no stack trace, no update or types noise", () => {
    const out = tidied();
    expect(out.filter((l) => l.startsWith("Your Worker has access")).length).toBe(1);
    expect(out.filter((l) => l.startsWith("env.PUBLIC_URL")).length).toBe(1);
    expect(out.filter((l) => l === OFFLINE_NOTICE).length).toBe(1);
    expect(out.some((l) => /^\s+at |^Error: |Request\.cf. object|update available|───/.test(l))).toBe(false);
    expect(out.filter((l) => /types/.test(l))).toEqual([TYPES_NOTICE]);
    expect(out[0]).toBe("⛅️ wrangler 4.156.2");
    expect(out.at(-1)).toBe("[wrangler:info] Ready on http://127.0.0.1:8931");
  });

  it("lets every other line through unchanged", () => {
    const tidy = startOutputFilter();
    for (const line of ["[wrangler:info] GET /healthz 200 OK (3ms)", '{"level":"info","msg":"x"}', ""])
      expect(tidy(line)).toEqual([line]);
  });
});
