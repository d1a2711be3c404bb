// The app's log lines during the Node fuzz: 44,000 requests each write an access line, and every console call in a
// vitest worker is shipped to the main process (a third or more of a fuzzed request's CPU time); kept in memory
// instead, the last ones printed when a test fails, as `--silent=passed-only` would have shown them.
import { afterAll, beforeAll, beforeEach } from "vitest";

/** Log lines kept for a failing test: the requests before the failing one. */
const TAIL = 200;
const LEVELS = ["log", "warn", "error"] as const;

/** Whether a console line is one of the app's JSON log lines (src/lib/log.ts); anything else prints as before. */
const isAppLine = (args: unknown[]) =>
  args.length === 1 && typeof args[0] === "string" && args[0].startsWith('{"level":"');

/**
 * Holds the app's log lines of every test of this file in a ring of the last TAIL, emptied when a test starts and
 * printed (to stderr) when it fails; every other console line prints as before. The console is restored after the
 * file (the unit project's threads run other files after it).
 */
export function quietAppLogs(): void {
  const ring: string[] = [];
  let next = 0;
  const originals = Object.fromEntries(LEVELS.map((level) => [level, console[level]]));
  beforeAll(() => {
    for (const level of LEVELS)
      console[level] = (...args: unknown[]) => {
        if (isAppLine(args)) ring[next++ % TAIL] = args[0] as string;
        else originals[level]?.apply(console, args);
      };
  });
  afterAll(() => void Object.assign(console, originals));
  beforeEach(({ onTestFailed }) => {
    ring.length = 0;
    next = 0;
    onTestFailed(() => {
      const lines = [...ring.slice(next % TAIL), ...ring.slice(0, next % TAIL)];
      process.stderr.write(`the app's last ${lines.length} of ${next} log lines in this test:\n${lines.join("\n")}\n`);
    });
  });
}
