// Concurrent POST /v1/memory as separate requests of the Worker (SELF.fetch, one I/O context each): every write answers
// 2xx and is stored once, same-team duplicates are still caught, and no answer or log says "different request".
import { SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiRequest, readResponse } from "../../../test/helpers";
import { freshTeam, memDocCount, memoryHarness, memoryToken } from "../../../test/memory-harness";
import { d1MemoryRowCount } from "../../../test/team-memory";
import { teamMemoryReads } from "../../../test/team-memory-reads";

/** the team's memories read through the app's own ports */
const reads = teamMemoryReads(memoryHarness().deps);

const topics = ["cache", "queue", "lease", "gate", "pool", "index"];
const textOf = (team: string, i: number) =>
  `incident ${i} of ${team}: the ${topics[i % topics.length]} path stalled at step ${i * 7}; fix ${i} applied`;

/** One write as its own request of the Worker (not the app called in the test's context). */
const post = async (token: string, namespace: string, text: string) =>
  readResponse(
    await SELF.fetch(apiRequest("POST", "/v1/memory", { token, body: { namespace, class: "episodic", text } })),
  );

describe("memory writes as concurrent requests (each its own I/O context)", () => {
  const logs: string[] = [];
  const originals = { warn: console.warn, error: console.error, log: console.log };
  beforeEach(() => {
    logs.length = 0;
    const capture = (...a: unknown[]) => logs.push(a.map(String).join(" "));
    Object.assign(console, { warn: capture, error: capture, log: capture });
  });
  afterEach(() => Object.assign(console, originals));

  it("answers 2xx to 24 concurrent writes of one team and stores each once", async () => {
    const team = freshTeam("xr");
    const token = await memoryToken(team);
    const ns = `team/${team}/project/xr`;
    const texts = Array.from({ length: 24 }, (_, i) => textOf(team, i));
    const answers = await Promise.all(texts.map((t) => post(token, ns, t)));
    expect(answers.map((a) => a.status)).toEqual(texts.map(() => 201));
    for (const a of answers) expect(a.text).not.toMatch(/different request/i);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(texts.length);
    const ids = answers.map((a) => a.json.id as string);
    const rows = await reads.teamDocs(team, ids);
    expect(await reads.teamDocCount(team)).toBe(rows.length);
    expect(rows.map((r) => r.id).sort()).toEqual(ids.sort());
    const byId = new Map(rows.map((r) => [r.id, r.text]));
    expect(answers.map((a) => byId.get(a.json.id))).toEqual(texts);
    expect(await d1MemoryRowCount()).toBe(0);
    expect(logs.filter((l) => /different request|cross-request|I\/O/i.test(l))).toEqual([]);
  });

  it("keeps two teams' interleaved concurrent writes apart, each stored once in its own team's object", async () => {
    const teams = [freshTeam("xa"), freshTeam("xb")];
    const tokens = await Promise.all(teams.map((t) => memoryToken(t)));
    const writes = Array.from({ length: 20 }, (_, i) => ({ k: i % 2, text: textOf(teams[i % 2] as string, i) }));
    const answers = await Promise.all(
      writes.map(({ k, text }) => post(tokens[k] as string, `team/${teams[k]}/project/xr`, text)),
    );
    expect(answers.map((a) => a.status)).toEqual(writes.map(() => 201));
    for (const a of answers) expect(a.text).not.toMatch(/different request/i);
    for (const [k, team] of teams.entries()) {
      const mine = answers.filter((_, i) => writes[i]?.k === k).map((a) => a.json.id as string);
      // every id answered by any request, looked up in this team's object: only this team's are there, and nothing else
      const rows = await reads.teamDocs(
        team,
        answers.map((a) => a.json.id as string),
      );
      expect(await reads.teamDocCount(team)).toBe(rows.length);
      expect(rows.map((r) => r.id).sort()).toEqual(mine.sort());
    }
    expect(logs.filter((l) => /different request|cross-request|I\/O/i.test(l))).toEqual([]);
  });

  it("stores the same text sent 6 times at once as separate requests once: one created, five reinforcing it", async () => {
    const team = freshTeam("xd");
    const token = await memoryToken(team);
    const ns = `team/${team}/project/xr`;
    const text = textOf(team, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(token, ns, text)));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && a.json.status === "reinforced")).toHaveLength(5);
    for (const a of answers) expect(a.json.id).toBe(created[0]?.json.id);
    expect(await memDocCount(team)).toBe(1);
  });
});
