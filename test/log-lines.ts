// The JSON lines the one logger (src/lib/log.ts) writes, captured from the console for tests that read them.
import { vi } from "vitest";

export type LogLine = Record<string, unknown>;

/** Every JSON line written to the console while the test runs (the logger writes nothing else); undo with vi.restoreAllMocks. */
export function captureLogLines(): LogLine[] {
  const lines: LogLine[] = [];
  for (const method of ["log", "warn", "error"] as const)
    vi.spyOn(console, method).mockImplementation((text: unknown) => {
      lines.push(JSON.parse(String(text)) as LogLine);
    });
  return lines;
}
