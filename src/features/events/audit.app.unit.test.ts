// Refused memory writes become audit rows (one per event_id) that GET /v1/audit lists for the caller's team only; in
// Node over the D1 stand-in (nodeTestDeps), the EVENTS consumer handed batches directly.
import { describe, expect, it } from "vitest";
import { nodeTestDeps } from "../../../test/node-d1/consumers";

const NOW = 1_790_000_000_000;

const refused = (team: string, id: string, at = NOW) => ({
  event_id: id,
  type: "memory_store_failed",
  team_id: team,
  run_id: null,
  occurred_at: at,
  source: "memory.write",
  code: "redaction_required",
  rule_ids: ["secret.github_token"],
  scope: `team/${team}/org`,
  class: "episodic",
});

const taskRefused = (team: string, id: string) => ({
  event_id: id,
  type: "task.memory_store_failed",
  team_id: team,
  run_id: "run-1",
  occurred_at: NOW + 5,
  source_event_id: "evt-task-1",
  task_id: "task-1",
  namespace: `team/${team}/project/default`,
  class: "semantic",
  code: "pii_detected",
  rule_ids: ["pii.email"],
});

/** the team's audit entries, oldest first, as GET /v1/audit lists them */
async function auditEntries(w: Awaited<ReturnType<typeof nodeTestDeps>>, team: string) {
  const res = await w.call("GET", "/v1/audit", { token: await w.token(team, ["runs:read"]) });
  return (res.json.entries as { type: string; actor: string; subject_id: string; metadata: unknown }[]).reverse();
}

describe("refused-write events → audit_log", () => {
  it("records memory_store_failed and task.memory_store_failed once each, even when redelivered", async () => {
    const w = await nodeTestDeps(NOW);
    const team = `team-aud-${crypto.randomUUID().slice(0, 8)}`;
    const bodies = [refused(team, `${team}-e1`), taskRefused(team, `${team}-e2`), refused(team, `${team}-e1`)];
    const result = await w.deliver(bodies);
    expect(result.retried).toEqual([]);
    expect(result.acked.sort()).toEqual([`${team}-e1`, `${team}-e1`, `${team}-e2`]);
    await w.deliver([refused(team, `${team}-e1`)]);
    const stored = await auditEntries(w, team);
    expect(stored.map((r) => [r.type, r.actor, r.subject_id])).toEqual([
      ["memory_store_failed", "memory.write", `team/${team}/org`],
      ["task.memory_store_failed", "learning", `team/${team}/project/default`],
    ]);
    expect(stored[0]?.metadata).toMatchObject({ rule_ids: ["secret.github_token"] });
  });

  it("retries a refused-write event that does not fit its schema (it lands in the dead-letter queue)", async () => {
    const w = await nodeTestDeps(NOW);
    const bad = { ...refused("team-aud-bad", "bad-1"), code: "not-a-code" };
    expect(await w.deliver([bad])).toEqual({ acked: [], retried: ["bad-1"] });
  });
});

describe("GET /v1/audit", () => {
  it("lists the caller's team's entries of a type, newest first, in pages; other teams' entries never show", async () => {
    const w = await nodeTestDeps(NOW);
    const team = `team-aud-${crypto.randomUUID().slice(0, 8)}`;
    const other = `${team}-other`;
    await w.deliver([
      refused(team, `${team}-a`, NOW + 1),
      refused(team, `${team}-b`, NOW + 2),
      refused(team, `${team}-c`, NOW + 3),
      taskRefused(team, `${team}-t`),
      refused(other, `${other}-x`, NOW + 4),
    ]);
    const tok = await w.token(team, ["runs:read"]);
    const first = await w.call("GET", "/v1/audit?type=memory_store_failed&limit=2", { token: tok });
    expect(first.status).toBe(200);
    expect(first.json.team_id).toBe(team);
    expect(first.json.entries.map((e: { metadata: { event_id: string } }) => e.metadata.event_id)).toEqual([
      `${team}-c`,
      `${team}-b`,
    ]);
    expect(first.json.entries[0]).toMatchObject({
      type: "memory_store_failed",
      actor: "memory.write",
      subject_type: "memory_scope",
      at: new Date(NOW + 3).toISOString(),
    });
    const second = await w.call(
      "GET",
      `/v1/audit?type=memory_store_failed&limit=2&cursor=${encodeURIComponent(first.json.next_cursor)}`,
      { token: tok },
    );
    expect(second.json.entries.map((e: { metadata: { event_id: string } }) => e.metadata.event_id)).toEqual([
      `${team}-a`,
    ]);
    expect(second.json.next_cursor).toBeNull();
    const all = await w.call("GET", "/v1/audit", { token: tok });
    expect(all.json.entries.map((e: { type: string }) => e.type)).toEqual([
      "task.memory_store_failed",
      "memory_store_failed",
      "memory_store_failed",
      "memory_store_failed",
    ]);
    const theirs = await w.call("GET", "/v1/audit", { token: await w.token(other, ["runs:read"]) });
    expect(theirs.json.entries.map((e: { metadata: { event_id: string } }) => e.metadata.event_id)).toEqual([
      `${other}-x`,
    ]);
  });

  it("answers 400 on a bad query, 401 without a token and 403 without runs:read", async () => {
    const w = await nodeTestDeps(NOW);
    const tok = await w.token("team-aud-q", ["runs:read"]);
    for (const q of ["limit=0", "limit=abc", "limit=500", "cursor=nope", "type=DROP%20TABLE", "extra=1"]) {
      const res = await w.call("GET", `/v1/audit?${q}`, { token: tok });
      expect([q, res.status, res.json.error.code]).toEqual([q, 400, "validation_failed"]);
    }
    expect((await w.call("GET", "/v1/audit")).status).toBe(401);
    const noScope = await w.call("GET", "/v1/audit", { token: await w.token("team-aud-q", ["memory:read"]) });
    expect(noScope.status).toBe(403);
  });
});
