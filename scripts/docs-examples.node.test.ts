// Docs that run: every fenced block opened with ```sh runnable in README.md and docs/*.md runs with bash, in document
// order, against the node-server project's shared local server (`npm start`, test/node-server/; the docs' teams,
// acme and team-a, are used by no other test file). The blocks of one file share one bash session (variables carry
// from block to block within a file, never across files, so each doc defines its own tokens). The files' sessions run
// side by side, a few at a time (they wait on curl, npm and the server more than they compute); each file's blocks
// still run in order. `localhost:8787` in a block is replaced by the test server's address.
//
// Checks: a comment line `# → <status> <shape>` (or `# → <shape>`) right after a curl states its answer. The status
// must match; in the shape, every `"key":scalar` pair must occur somewhere in the JSON answer (a string value with
// `…` matches any string starting with the part before it, e.g. "mem_…"), and `{a, b}` (bare names) must be top-level
// keys. A block without such lines only has to run (bash exit status 0 for the file). Blocks left unmarked need
// placeholders, secrets or an outside service (Slack, Cloudflare, a browser).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";

const root = join(import.meta.dirname, "..");
const FILES = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The runnable blocks of a markdown file, in order. */
export function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const re = /^([ \t]*)```(?:sh|bash) runnable[ \t]*\n([\s\S]*?)^\1```[ \t]*$/gm;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) blocks.push(m[2] as string);
  return blocks;
}

type Expectation = { status?: number; pairs: [string, unknown][]; keys: string[]; text: string };

/** Parses the text after `# →`. */
export function parseExpectation(text: string): Expectation {
  const m = /^(\d{3})?\s*(.*)$/.exec(text.trim()) as RegExpExecArray;
  const shape = m[2] as string;
  const pairs: [string, unknown][] = [];
  for (const p of shape.matchAll(/"(\w+)":\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)(?=\s*[,}\]])/g))
    pairs.push([p[1] as string, JSON.parse(p[2] as string)]);
  const bare = /^\{\s*([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_][\w]*)*)\s*\}/.exec(shape);
  const keys = bare ? (bare[1] as string).split(",").map((k) => k.trim()) : [];
  return { status: m[1] ? Number(m[1]) : undefined, pairs, keys, text };
}

function matches(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "string" && expected.includes("…"))
    return typeof actual === "string" && actual.startsWith(expected.slice(0, expected.indexOf("…")));
  return JSON.stringify(expected) === JSON.stringify(actual);
}

function hasPair(node: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(node)) return node.some((n) => hasPair(n, key, value));
  if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (key in o && matches(value, o[key])) return true;
    return Object.values(o).some((n) => hasPair(n, key, value));
  }
  return false;
}

/** bash prelude: `curl` logs each answer's status and body (base64) to $DOCS_LOG and prints the body as usual. */
const PRELUDE = `
curl() {
  local out code
  out=$(command curl -w '\\n%{http_code}' "$@"; printf x)
  out=\${out%x}
  code=\${out##*$'\\n'}
  out=\${out%$'\\n'*}
  printf 'RESP %s %s\\n' "$code" "$(printf '%s' "$out" | base64 -w0)" >> "$DOCS_LOG"
  printf '%s' "$out"
}
__expect() { printf 'EXPECT %s\\n' "$1" >> "$DOCS_LOG"; }
# \`npm run -s token -- …\` is package.json's token script (TOKEN_SCRIPT, checked by a test below), run as npm runs it
# (in the package's root, node_modules/.bin first on PATH) without npm's own start-up, ~0.3 CPU-s for each of the docs' ~18 tokens
npm() {
  if [ "$1" = run ] && { [ "$2" = -s ] || [ "$2" = --silent ]; } && [ "$3" = token ] && [ "$4" = -- ]; then
    shift 4
    (cd "$DOCS_ROOT" && PATH="$DOCS_ROOT/node_modules/.bin:$PATH" node scripts/token.mjs "$@")
  else
    command npm "$@"
  fi
}
`;
/** package.json's `token` script, which the prelude's npm() runs directly */
const TOKEN_SCRIPT = "node scripts/token.mjs";

/** The block as a script: the server's address, and an __expect after every `# →` line (continuations are prose). */
function instrument(block: string, base: string): string {
  return block
    .replaceAll("http://localhost:8787", base)
    .replaceAll("localhost:8787", base)
    .split("\n")
    .map((line) => {
      const m = /^\s*# → (.*)$/.exec(line);
      return m ? `${line}\n__expect ${Buffer.from(m[1] as string).toString("base64")}` : line;
    })
    .join("\n");
}

/** What one file's bash session left: its exit status (null when it was killed), its stderr and its answer log. */
type Session = { status: number | null; stderr: string; log: string };

/** Runs one file's blocks in one bash session; resolves (never rejects) once bash has ended. */
function runSession(file: string, blocks: string[], url: string, logs: string): Promise<Session> {
  return new Promise((resolve) => {
    const log = join(logs, `${file.replace(/\W/g, "_")}.log`);
    writeFileSync(log, "");
    const script = [PRELUDE, ...blocks.map((b) => instrument(b, url))].join("\n");
    const env = { ...process.env, DOCS_LOG: log, DOCS_ROOT: root };
    // a hung session is killed (side by side on a loaded machine one file has taken 30 s)
    const options = { cwd: root, env, encoding: "utf8" as const, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 };
    execFile("bash", ["-c", script], options, (error, _stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      resolve({ status: error ? (typeof code === "number" ? code : null) : 0, stderr, log });
    });
  });
}

/** Starts the files' sessions `slots` at a time, in the files' order; each file's promise resolves when its own ends. */
function runSessions(files: [string, string[]][], url: string, logs: string, slots: number) {
  const queue = files.map(([file, blocks]) => {
    let done: (s: Session) => void = () => {};
    const session = new Promise<Session>((resolve) => {
      done = resolve;
    });
    return { file, start: () => runSession(file, blocks, url, logs).then(done), session };
  });
  const pending = [...queue];
  const slot = async () => {
    for (let job = pending.shift(); job; job = pending.shift()) await job.start();
  };
  for (let i = 0; i < slots; i++) void slot();
  return new Map(queue.map((job) => [job.file, job.session]));
}

describe("runnable doc examples", () => {
  const url = sharedServerUrl();
  /** the bash sessions' answer logs */
  const logs = mkdtempSync(join(tmpdir(), "warden-docs-"));
  const runnable = FILES.map((file): [string, string[]] => [
    file,
    runnableBlocks(readFileSync(join(root, file), "utf8")),
  ]).filter(([, blocks]) => blocks.length > 0);
  let sessions = new Map<string, Promise<Session>>();
  beforeAll(async () => {
    await sharedServerReady();
    sessions = runSessions(runnable, url, logs, 4);
  }, SHARED_SERVER_WAIT_MS);
  let totalChecks = 0;

  afterAll(async () => {
    await Promise.all(sessions.values());
    rmSync(logs, { recursive: true, force: true });
  });

  it("marks the README walkthrough and the main runs, memory and learning examples runnable", () => {
    for (const f of ["README.md", "docs/runs.md", "docs/memory.md", "docs/learning.md"])
      expect(runnableBlocks(readFileSync(join(root, f), "utf8")).length, f).toBeGreaterThan(0);
  });

  it("runs `npm run -s token -- …` as package.json's token script does (node scripts/token.mjs)", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.token).toBe(TOKEN_SCRIPT);
  });

  for (const [file, blocks] of runnable) {
    it(`${file}: ${blocks.length} runnable block(s) answer as documented`, async () => {
      const res = (await sessions.get(file)) as Session;
      const failures: string[] = [];
      if (res.status !== 0) failures.push(`bash exited ${res.status}: ${res.stderr.slice(-2000)}`);
      let last: { status: number; body: string } | undefined;
      let checks = 0;
      for (const line of readFileSync(res.log, "utf8").split("\n")) {
        const [kind, a, b] = line.split(" ");
        if (kind === "RESP") last = { status: Number(a), body: Buffer.from(b ?? "", "base64").toString("utf8") };
        if (kind !== "EXPECT") continue;
        const exp = parseExpectation(Buffer.from(a ?? "", "base64").toString("utf8"));
        checks++;
        if (!last) {
          failures.push(`no answer before "# → ${exp.text}"`);
          continue;
        }
        const where = `"# → ${exp.text}" got ${last.status} ${last.body.slice(0, 600)}`;
        if (exp.status !== undefined && exp.status !== last.status) failures.push(`status: ${where}`);
        if (exp.pairs.length === 0 && exp.keys.length === 0) continue;
        let body: unknown;
        try {
          body = JSON.parse(last.body);
        } catch {
          failures.push(`not JSON: ${where}`);
          continue;
        }
        for (const [k, v] of exp.pairs) if (!hasPair(body, k, v)) failures.push(`${k}=${JSON.stringify(v)}: ${where}`);
        for (const k of exp.keys)
          if (!body || typeof body !== "object" || !(k in body)) failures.push(`key ${k}: ${where}`);
      }
      totalChecks += checks;
      console.log(`${file}: ${blocks.length} runnable block(s), ${checks} checked answers (total ${totalChecks})`);
      expect(failures, failures.join("\n")).toEqual([]);
    });
  }
});
