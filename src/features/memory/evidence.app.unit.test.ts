// Memory evidence over HTTP: metadata.evidence names the team's artifacts (404 for another team's or an unknown id,
// 422 for a malformed list, nothing written either way, bulk all or nothing); query results carry the ids.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { createD1ArtifactStore } from "../artifacts/store/artifact-store";
import type { ArtifactRow } from "../artifacts/store/artifact-store-port";

const { env, freshTeam, memDocCount, memoryHarness, memoryToken } = await nodeMemoryTools();

/** An artifact row of the team (through the real D1 adapter; its bytes do not matter here). */
async function artifactOf(teamId: string, artifactId: string) {
  const row: ArtifactRow = {
    artifactId,
    teamId,
    runId: "run_evidence",
    opId: null,
    kind: "log",
    key: `t/${teamId}/r/run_evidence/${artifactId}`,
    contentType: "text/plain",
    sizeBytes: 10,
    sha256: "0".repeat(64),
    status: "released",
    gateId: null,
    createdBy: "worker",
    createdAt: Date.now(),
    expiresAt: Date.now() + 86_400_000,
  };
  expect(await createD1ArtifactStore(drizzle(env.DB)).insertWithinQuota(row, 1 << 30)).toBe(true);
  return artifactId;
}

describe("memory evidence", () => {
  it("stores metadata.evidence naming the team's artifacts and query results carry it", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const a1 = await artifactOf(team, `art_${team}_1`);
    const a2 = await artifactOf(team, `art_${team}_2`);
    const ns = `team/${team}/project/billing`;
    const t = await memoryToken(team);
    const w = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns,
        class: "semantic",
        text: "invoice totals drift when a line item is duplicated; dedupe lines before summing",
        metadata: { evidence: [a1, a2] },
      },
    });
    expect(w.status, w.text).toBe(201);
    const plain = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "semantic", text: "currency codes are ISO 4217 upper case in every export" },
    });
    expect(plain.status, plain.text).toBe(201);
    const q = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: { namespaces: [ns], text: "invoice totals duplicated line item" },
    });
    expect(q.status, q.text).toBe(200);
    const byId = new Map(q.json.results.map((r: { id: string; evidence: string[] }) => [r.id, r.evidence]));
    expect(byId.get(w.json.id)).toEqual([a1, a2]);
    expect(byId.get(plain.json.id)).toEqual([]);
  });

  it("refuses another team's artifact or an unknown id with 404, a malformed list with 422; nothing is written", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const other = freshTeam();
    const mine = await artifactOf(team, `art_${team}_1`);
    const theirs = await artifactOf(other, `art_${other}_1`);
    const t = await memoryToken(team);
    const write = (evidence: unknown) =>
      h.call("POST", "/v1/memory", {
        token: t,
        body: {
          namespace: `team/${team}/org`,
          class: "semantic",
          text: "refunds over 500 EUR need a second approver",
          metadata: { evidence },
        },
      });
    const foreign = await write([mine, theirs]);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.message).toContain(theirs);
    expect(foreign.json.error.message).not.toContain(mine);
    expect((await write(["art_nope"])).status).toBe(404);
    for (const bad of ["art_1", [1, 2], [""], Array.from({ length: 21 }, (_, i) => `a${i}`)]) {
      const r = await write(bad);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.json.error.message).toMatch(/metadata\.evidence must be a list of at most 20 artifact ids/);
    }
    const bulk = await h.call("POST", "/v1/memory/bulk", {
      token: t,
      body: {
        items: [
          { namespace: `team/${team}/org`, class: "semantic", text: "first fact", metadata: { evidence: [mine] } },
          { namespace: `team/${team}/org`, class: "semantic", text: "second fact", metadata: { evidence: [theirs] } },
        ],
      },
    });
    expect(bulk.status).toBe(404);
    expect(await memDocCount(team)).toBe(0);
    expect((await write([mine])).status).toBe(201);
    expect(await memDocCount(team)).toBe(1);
  });
});
