// A memory whose row was stored but whose vector never reached the index (a kill between persist's two calls): the
// client's retry of the same write answers the stored id, and that id is found by queries again.
import { describe, expect, it } from "vitest";
import { nodeMemoryTools } from "../../../test/node-d1/memory";

const { freshTeam, memDocCount, memoryHarness, memoryToken } = await nodeMemoryTools();

describe("a stored memory without its vector", () => {
  it("is restored to the index by a retry of the same write, which answers the stored id", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await memoryToken(team);
    const ns = `team/${team}/project/kill-1`;
    const body = { namespace: ns, class: "episodic", text: "the nightly export retried three times before it passed" };
    const found = async () =>
      (await h.call("POST", "/v1/memory/query", { token: t, body: { namespaces: [ns], text: body.text } })).json
        .results as { id: string }[];

    const first = await h.call("POST", "/v1/memory", { token: t, body });
    expect(first.status, first.text).toBe(201);
    const id = first.json.id as string;
    // the state a kill between the row write and the index write leaves: the row, no vector
    await h.deps.vectorIndex.delete(team, [id]);
    expect((await found()).map((r) => r.id)).toEqual([]);

    const retry = await h.call("POST", "/v1/memory", { token: t, body });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.id).toBe(id);
    expect((await found()).map((r) => r.id)).toEqual([id]);
    expect(await memDocCount(team)).toBe(1);
  });
});
