// Memory hints reach runs: POST /v1/runs answers with the team's org memories found by its goal (YARLI run hints).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeMemoryTools } from "../../../test/node-d1/memory";

const { call, token } = await nodeHelpers();
const { freshTeam, memoryHarness } = await nodeMemoryTools();

describe("run.observer.memory_hints", () => {
  it("returns memories matching the goal and skills when a run starts", async () => {
    const team = `hints-${crypto.randomUUID().slice(0, 8)}`;
    const t = await token(team);
    const lesson = "Invoice extraction fails schema validation when totals use a comma decimal separator";
    const w = await call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org/lessons`, class: "semantic", text: lesson },
    });
    expect(w.status).toBe(201);
    const run = await call("POST", "/v1/runs", {
      token: t,
      body: { goal: "Extract invoice totals", skills: ["invoice-extract"] },
    });
    expect(run.status).toBe(201);
    const hints = JSON.stringify(run.json.hints);
    expect(hints).toContain(w.json.id);
    expect(hints).toContain("comma decimal separator");
  });

  it("surfaces a lesson the learning consumer filed for a failed task at the next run's start and on failure", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const stored = await h.deps.taskMemory.store(team, {
      namespace: `team/${team}/project/default`,
      class: "semantic",
      text: "task invoice-extract failed: reason bucket schema_invalid, exit-code bucket 1xx",
      tags: ["task.failed"],
      metadata: { task_key: "invoice-extract" },
    });
    expect(stored.ok).toBe(true);
    const start = await h.deps.hints.forRunStart(
      team,
      { goal: "Extract invoices", taskKeys: ["invoice-extract"] },
      h.now(),
    );
    expect(start.map((x) => x.namespace)).toEqual([`team/${team}/project/default`]);
    const failure = await h.deps.hints.forTaskFailure(team, { reasonBucket: "schema_invalid", runId: "r-1" }, h.now());
    expect(failure).toHaveLength(1);
  });
});
