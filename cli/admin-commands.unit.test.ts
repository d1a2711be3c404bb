// `warden admin migrate-memory`'s loop over a fake copy route, and its progress line.
import { describe, expect, it } from "vitest";
import { type MigrateProgress, progressLine, runMigration } from "./admin-commands.ts";
import { CliExit, EXIT } from "./io.ts";

/** a copy route over `total` memories, `batch` a call; the call after the last page verifies */
function fakeRoute(total: number, batch: number) {
  let copied = 0;
  let calls = 0;
  const next = async (): Promise<MigrateProgress> => {
    calls++;
    if (copied < total) {
      copied = Math.min(total, copied + batch);
      return { copied, total, done: false };
    }
    return { copied, total, done: true, verified_hash: "h", switched_at: 1 };
  };
  return { next, calls: () => calls };
}

describe("runMigration", () => {
  it("calls until done, drawing every answer, and returns the last", async () => {
    const route = fakeRoute(10, 4);
    const drawn: string[] = [];
    const last = await runMigration(route.next, (p) => drawn.push(progressLine(p, 10)));
    expect(last).toEqual({ copied: 10, total: 10, done: true, verified_hash: "h", switched_at: 1 });
    expect(route.calls()).toBe(4);
    expect(drawn).toEqual(["[####      ] 4/10", "[########  ] 8/10", "[##########] 10/10", "[##########] 10/10"]);
  });

  it("stops on the first refusal (a copy that did not verify) and rethrows it", async () => {
    const refusal = new Error("409 conflict");
    let calls = 0;
    const next = async () => {
      calls++;
      if (calls === 2) throw refusal;
      return { copied: 1, total: 3, done: false };
    };
    await expect(runMigration(next, () => {})).rejects.toBe(refusal);
    expect(calls).toBe(2);
  });

  it("gives up with exit 1 when the server never says done", async () => {
    const never = async () => ({ copied: 0, total: 5, done: false });
    const failure = await runMigration(never, () => {}, 3).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CliExit);
    expect((failure as CliExit).code).toBe(EXIT.failure);
  });
});

describe("progressLine", () => {
  it("fills the bar by the copied share, full for an empty team", () => {
    expect(progressLine({ copied: 50, total: 100 }, 10)).toBe("[#####     ] 50/100");
    expect(progressLine({ copied: 0, total: 100 }, 4)).toBe("[    ] 0/100");
    expect(progressLine({ copied: 0, total: 0 }, 4)).toBe("[####] 0/0");
  });
});
