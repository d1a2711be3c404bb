// POST /v1/memory, /query, /use, /bulk, /import over HTTP: guard refusals, ranking factors, dedupe, fences, tiers, TTL.
import { describe, expect, it } from "vitest";
import { nodeMemoryTools, T0 } from "../../../test/node-d1/memory";
import { teamMemoryReads } from "../../../test/team-memory-reads";
import { hashEmbed } from "../../adapters/embed/hashing";
import { mintToken } from "../../auth/mint";
import type { Scope } from "../../auth/tokens";
import { runDailySweep } from "../sweeps/scheduled";
import { createMemoryHints } from "./hints";
import { DAY_MS } from "./ranking";

const { env, freshTeam, memDocCount, memoryHarness } = await nodeMemoryTools();

const RW: Scope[] = ["memory:read", "memory:write"];
const tok = (
  teamId: string,
  scopes: Scope[] = RW,
  extra: { personaId?: string; taskId?: string; runId?: string } = {},
) =>
  mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId,
    scopes,
    sub: `u-${teamId}`,
    nowSeconds: Math.floor(Date.now() / 1000),
    ...extra,
  });

describe("POST /v1/memory", () => {
  it("stores a summary and finds it again with every ranking factor shown", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ns = `team/${team}/project/billing`;
    const w = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns,
        class: "semantic",
        text: "deploy-api timed out in the build step; raising the step timeout to 120 s fixed it",
        tags: ["deploy"],
      },
    });
    expect(w.status).toBe(201);
    expect(w.json).toMatchObject({ tier: "hot", status: "created" });
    const q = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: { namespaces: [ns], text: "deploy step timeout" },
    });
    expect(q.status).toBe(200);
    const [r] = q.json.results;
    expect(r).toMatchObject({ id: w.json.id, namespace: ns, class: "semantic", tags: ["deploy"] });
    expect(r.scores.similarity).toBeGreaterThan(0.2);
    expect(r.scores.recency).toBe(1);
    expect(r.score).toBeCloseTo(r.scores.similarity * r.scores.importance * r.scores.recency, 5);
  });

  it("refuses a secret with 422, stores nothing, echoes and logs no value, and emits memory_store_failed with rule ids", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const secret = `ghp_${"Zx9".repeat(12)}`;
    const ns = `team/${team}/org`;
    const res = await h.call("POST", "/v1/memory", {
      token: await tok(team),
      body: { namespace: ns, class: "episodic", text: `CI failed after the token ${secret} expired` },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("redaction_required");
    expect(res.json.error.details.rule_ids).toContain("secret.github_token");
    expect(res.text).not.toContain(secret);
    expect(await memDocCount(team)).toBe(0);
    expect(await h.deps.vectorIndex.query(team, hashEmbed("CI failed after the token expired"), { topK: 10 })).toEqual(
      [],
    );
    const [event] = h.published;
    expect(event).toMatchObject({
      type: "memory_store_failed",
      team_id: team,
      code: "redaction_required",
      source: "memory.write",
    });
    expect(event!.rule_ids).toContain("secret.github_token");
    expect(JSON.stringify(h.published)).not.toContain(secret.slice(4));
    expect(h.logs.join("\n")).not.toContain(secret.slice(4));
  });

  it.each([
    ["PII in the text", { text: "Customer jane.doe@example.com reported the outage" }, "pii_detected"],
    ["a card number in metadata", { text: "Refund failed", metadata: { card: 4111111111111111 } }, "pii_detected"],
    ["a URL in a tag", { text: "Dashboard went blank", tags: ["https://grafana.acme.com/d/x"] }, "redaction_required"],
    [
      "a base64-encoded Stripe key",
      { text: `key was ${btoa("sk_live_4eC39HqLyjWDarjtT1zdp7dc")}` },
      "redaction_required",
    ],
    [
      "a zero-width-split Slack token",
      { text: "x\u200bo\u200bx\u200bb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx" },
      "redaction_required",
    ],
    [
      "an Anthropic key as a tag",
      { text: "Key rotation", tags: [`sk-ant-api03-${"Ab9_".repeat(23)}xAA`] },
      "redaction_required",
    ],
    [
      "a token as a metadata key",
      { text: "Key rotation", metadata: { [`ghp_${"k".repeat(36)}`]: true } },
      "redaction_required",
    ],
    [
      "a password assignment as a metadata pair",
      { text: "Login failed", metadata: { db_password: "s3cr3tP4ss" } },
      "redaction_required",
    ],
    // issue 16: a leaked Warden API key is recognised by its prefix
    ["a leaked Warden key", { text: `Agent config had wdn_live_${"Zk3q".repeat(8)} in it` }, "redaction_required"],
    ["a password announced in prose", { text: "The admin password is Summer2024! until Friday" }, "redaction_required"],
    ["a key in Cyrillic look-alikes", { text: `Leaked: ѕk_lіvе_${"4eC39HqLyjWDarjtT1zdp7dc"}` }, "redaction_required"],
    ["an IBAN in groups", { text: "Payout failed for IBAN DE89 3704 0044 0532 0130 00" }, "pii_detected"],
    ["a spelled-out e-mail", { text: "Contact jane.doe [at] example [dot] com for access" }, "pii_detected"],
  ])("refuses %s", async (_name, extra, code) => {
    const h = memoryHarness();
    const team = freshTeam();
    const res = await h.call("POST", "/v1/memory", {
      token: await tok(team),
      body: { namespace: `team/${team}/org`, class: "kb", ...extra },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe(code);
    expect(await memDocCount(team)).toBe(0);
    expect(h.published).toHaveLength(1);
  });

  it("refuses summaries over the size limit and raw logs with 422 rejected", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const long = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: "a ".repeat(1001) },
    });
    expect(long.status).toBe(422);
    expect(long.json.error).toMatchObject({ code: "rejected", details: { rule_ids: ["size.summary_too_long"] } });
    const log = [
      "2026-11-20T10:00:01Z INFO starting worker",
      "2026-11-20T10:00:02Z WARN retrying connection",
      "2026-11-20T10:00:03Z ERROR connection refused",
    ].join("\n");
    const raw = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: log },
    });
    expect(raw.status).toBe(422);
    expect(raw.json.error.details.rule_ids).toEqual(["size.raw_log"]);
    const trace = "TypeError: x is undefined\n    at run (src/a.ts:10:5)\n    at main (src/b.ts:3:1)";
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: t,
          body: { namespace: `team/${team}/org`, class: "kb", text: trace },
        })
      ).status,
    ).toBe(422);
    expect(await memDocCount(team)).toBe(0);
    expect(h.published.map((e) => e.code)).toEqual(["rejected", "rejected", "rejected"]);
  });

  it("reinforces a near-duplicate in the same namespace instead of storing a copy", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ns = `team/${team}/project/p1`;
    const text =
      "The nightly export job fails with ENOSPC when the scratch volume is below 5 GiB; clean /tmp before the run";
    const a = await h.call("POST", "/v1/memory", { token: t, body: { namespace: ns, class: "semantic", text } });
    const b = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "semantic", text: `${text}.` },
    });
    const c = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "semantic", text: text.replace("nightly", "Nightly ") },
    });
    expect(a.status).toBe(201);
    expect(b.status).toBe(200);
    expect(b.json).toMatchObject({ id: a.json.id, status: "reinforced" });
    expect(c.json.id).toBe(a.json.id);
    expect(await memDocCount(team)).toBe(1);
    // same text elsewhere is a separate memory
    const other = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/project/p2`, class: "semantic", text },
    });
    expect(other.status).toBe(201);
    const q = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: { namespaces: [ns], text: "export job ENOSPC" },
    });
    expect(q.json.results).toHaveLength(1);
    expect(q.json.results[0].scores.importance).toBeGreaterThan(1.3); // two reinforcements: 10 + 16
  });

  it("keeps a contradiction with a supersedes link instead of deleting or merging", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ns = `team/${team}/org/runbooks`;
    const old = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns,
        class: "kb",
        text: "Restarting the ingest worker clears the stuck queue backlog within five minutes",
      },
    });
    const neu = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns,
        class: "kb",
        text: "Restarting the ingest worker does not clear the stuck queue backlog within five minutes",
      },
    });
    expect(neu.status).toBe(201);
    expect(neu.json.supersedes).toBe(old.json.id);
    expect(await memDocCount(team)).toBe(2);
    const explicit = await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: ns,
        class: "kb",
        text: "Drain the queue with the replay tool instead of restarting",
        supersedes: neu.json.id,
      },
    });
    expect(explicit.json.supersedes).toBe(neu.json.id);
    const q = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: { namespaces: [ns], text: "ingest worker stuck queue backlog" },
    });
    expect(q.json.results.map((r: any) => r.id)).toEqual(expect.arrayContaining([old.json.id, neu.json.id]));
    const bad = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: "x y z", supersedes: old.json.id },
    });
    expect(bad.status).toBe(400);
  });

  it("answers bad input with the error envelope, never a 5xx", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const cases: [unknown, number][] = [
      [{ namespace: "teams/x/org", class: "kb", text: "x" }, 400],
      [{ namespace: `team/${team}/galaxy/x`, class: "kb", text: "x" }, 400],
      [{ namespace: `team/${team}/task`, class: "kb", text: "x" }, 400],
      [{ namespace: `team/${team}/org/../x`, class: "kb", text: "x" }, 400],
      [{ namespace: `team/${team}/org`, class: "rigid", text: "x" }, 400],
      [{ namespace: `team/${team}/org`, class: "kb", text: "   " }, 400],
      [{ namespace: `team/${team}/org`, class: "kb" }, 400],
      [{ namespace: `team/${team}/org`, class: "kb", text: "x", extra: 1 }, 400],
      [{ namespace: `team/${team}/org`, class: "kb", text: "x", tags: "a" }, 400],
      ["{not json", 400],
      [[], 400],
    ];
    for (const [body, status] of cases) {
      const res = await h.call("POST", "/v1/memory", { token: t, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.error.code).toMatch(/validation_failed|invalid_json/);
    }
    expect(
      (await h.call("POST", "/v1/memory", { body: { namespace: `team/${team}/org`, class: "kb", text: "x" } })).status,
    ).toBe(401);
    const ro = await tok(team, ["memory:read"]);
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: ro,
          body: { namespace: `team/${team}/org`, class: "kb", text: "x" },
        })
      ).status,
    ).toBe(403);
    for (const body of [
      { namespaces: [], text: "x" },
      { namespaces: [`team/${team}/org`], text: "x", top_k: 0 },
      { namespaces: [`team/${team}/org`], text: "x", classes: ["log"] },
    ]) {
      expect((await h.call("POST", "/v1/memory/query", { token: t, body })).status).toBe(400);
    }
    expect((await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [] } })).status).toBe(400);
    const leaky = await h.call("POST", "/v1/memory/use", {
      token: t,
      body: { ids: ["mem_x"], run_id: "postgres://app:s3cret@db.internal/app" },
    });
    expect(leaky.status).toBe(422);
    expect((await h.call("POST", "/v1/memory/use", { token: t, body: { ids: ["mem_nope"] } })).json).toMatchObject({
      not_found: ["mem_nope"],
    });
  });
});

describe("namespace fences", () => {
  it("never lets a team read or write another team's namespaces", async () => {
    const h = memoryHarness();
    const a = freshTeam("a");
    const b = freshTeam("b");
    const text = "Certificate renewal for the edge proxy must run before the 1st of each month";
    const wa = await h.call("POST", "/v1/memory", {
      token: await tok(a),
      body: { namespace: `team/${a}/org`, class: "kb", text },
    });
    expect(wa.status).toBe(201);
    const tb = await tok(b);
    expect(
      (await h.call("POST", "/v1/memory/query", { token: tb, body: { namespaces: [`team/${a}/org`], text } })).status,
    ).toBe(403);
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: tb,
          body: { namespace: `team/${a}/org`, class: "kb", text: "poison" },
        })
      ).status,
    ).toBe(403);
    // b's own namespace with the same path shape holds nothing of a's
    const own = await h.call("POST", "/v1/memory/query", { token: tb, body: { namespaces: [`team/${b}/org`], text } });
    expect(own.json.results).toEqual([]);
    // and b cannot use (boost) a's memory by id
    const use = await h.call("POST", "/v1/memory/use", { token: tb, body: { ids: [wa.json.id] } });
    expect(use.json).toMatchObject({ used: [], boosted: [], not_found: [wa.json.id] });
  });

  it("keeps persona-, task- and run-scoped tokens to their own sub-namespaces", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const admin = await tok(team);
    const p1 = await tok(team, RW, { personaId: "p1" });
    const task = await tok(team, RW, { taskId: "t1" });
    const text = "Persona notes: prefer the replay tool for stuck queues";
    for (const ns of [`team/${team}/persona/p2`, `team/${team}/org`, `team/${team}/task/t1`]) {
      expect(
        (
          await h.call("POST", "/v1/memory", {
            token: admin,
            body: { namespace: ns, class: "kb", text: `${text} (${ns})` },
          })
        ).status,
      ).toBe(201);
    }
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: p1,
          body: { namespace: `team/${team}/persona/p1/notes`, class: "kb", text },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: p1,
          body: { namespace: `team/${team}/persona/p2`, class: "kb", text },
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.call("POST", "/v1/memory", { token: p1, body: { namespace: `team/${team}/org`, class: "kb", text } }))
        .status,
    ).toBe(403);
    expect(
      (await h.call("POST", "/v1/memory/query", { token: p1, body: { namespaces: [`team/${team}/persona/p2`], text } }))
        .status,
    ).toBe(403);
    expect(
      (await h.call("POST", "/v1/memory/query", { token: p1, body: { namespaces: [`team/${team}/task/t1`], text } }))
        .status,
    ).toBe(403);
    const shared = await h.call("POST", "/v1/memory/query", {
      token: p1,
      body: { namespaces: [`team/${team}/org`, `team/${team}/persona/p1`], text },
    });
    expect(shared.status).toBe(200);
    expect(shared.json.results.map((r: any) => r.namespace).sort()).toEqual([
      `team/${team}/org`,
      `team/${team}/persona/p1/notes`,
    ]);
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: task,
          body: { namespace: `team/${team}/task/t1/x`, class: "working", text: "scratch: retry with a smaller batch" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await h.call("POST", "/v1/memory", {
          token: task,
          body: { namespace: `team/${team}/task/t2`, class: "working", text: "x y" },
        })
      ).status,
    ).toBe(403);
  });
});

describe("ranking over HTTP", () => {
  it("ranks a used memory above its unused twin, per actor role, once per run", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const text = "Rolling back the search indexer to the previous image restores query latency";
    const a = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/project/a`, class: "semantic", text },
    });
    const b = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/project/b`, class: "semantic", text },
    });
    const q = async (token: string) =>
      (
        await h.call("POST", "/v1/memory/query", {
          token,
          body: { namespaces: [`team/${team}/project/a`, `team/${team}/project/b`], text },
        })
      ).json.results;
    const before = await q(t);
    expect(before.map((r: any) => r.id)).toEqual([a.json.id, b.json.id].sort()); // equal scores: by id
    const u = await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [b.json.id], run_id: "run-1" } });
    expect(u.json).toMatchObject({ used: [b.json.id], boosted: [b.json.id], actor_key: "team" });
    const again = await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [b.json.id], run_id: "run-1" } });
    expect(again.json.boosted).toEqual([]);
    const after = await q(t);
    expect(after[0].id).toBe(b.json.id);
    expect(after[0].scores.importance).toBeGreaterThan(after[1].scores.importance);
    // a persona's own role row starts from the team's and moves on its own
    const persona = await tok(team, RW, { personaId: "reviewer" });
    // repeated ids in one call count once; two calls without run_id count twice (18 → 26 for this role)
    await h.call("POST", "/v1/memory/use", { token: persona, body: { ids: [a.json.id, a.json.id] } });
    await h.call("POST", "/v1/memory/use", { token: persona, body: { ids: [a.json.id] } });
    const pv = await q(persona);
    expect(pv[0].id).toBe(a.json.id);
    expect((await q(t))[0].id).toBe(b.json.id);
  });

  it("halves an episodic memory's recency after 30 days and never decays a pinned one", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ns = `team/${team}/org`;
    await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "episodic", text: "Payment webhook retries stalled during the provider outage" },
    });
    await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "kb", pinned: true, text: "Payment webhooks are idempotent by event id" },
    });
    h.advance(30 * DAY_MS);
    const res = await h.call("POST", "/v1/memory/query", {
      token: t,
      body: { namespaces: [ns], text: "payment webhook" },
    });
    const byClass = Object.fromEntries(res.json.results.map((r: any) => [r.class, r]));
    expect(byClass.episodic.scores.recency).toBeCloseTo(0.5, 5);
    expect(byClass.kb.scores.recency).toBe(1);
  });
});

describe("bulk, import and rigid memory", () => {
  it("bulk-writes guarded items all or nothing", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const items = Array.from({ length: 20 }, (_, i) => ({
      namespace: `team/${team}/org`,
      class: "kb",
      text: `Runbook step ${i}: check the ${i}th shard lag`,
    }));
    const ok = await h.call("POST", "/v1/memory/bulk", { token: t, body: { items: [...items, items[0]] } });
    expect(ok.status).toBe(201);
    expect(ok.json.results).toHaveLength(21);
    expect(ok.json.results[20]).toMatchObject({ id: ok.json.results[0].id, status: "reinforced" });
    expect(await memDocCount(team)).toBe(20);
    const bad = await h.call("POST", "/v1/memory/bulk", {
      token: t,
      body: {
        items: [
          { namespace: `team/${team}/org`, class: "kb", text: "fine text here" },
          { namespace: `team/${team}/org`, class: "kb", text: "call +1 415 555 0134" },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe("pii_detected");
    expect(await memDocCount(team)).toBe(20);
  });

  it("imports rigid memory only with policy:admin, and never accepts it through POST /v1/memory", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const body = {
      namespace: `team/${team}/org/charter`,
      kind: "charter",
      entries: [
        { text: "Never deploy on Fridays after 15:00 UTC" },
        { text: "Every schema rewrite needs a hard gate" },
      ],
    };
    expect((await h.call("POST", "/v1/memory/import", { token: await tok(team), body })).status).toBe(403);
    const admin = await tok(team, ["policy:admin", "memory:read"]);
    const imp = await h.call("POST", "/v1/memory/import", { token: admin, body });
    expect(imp.status).toBe(201);
    expect(imp.json.imported).toBe(2);
    const q = await h.call("POST", "/v1/memory/query", {
      token: admin,
      body: { namespaces: [`team/${team}/org`], text: "deploy on Friday", classes: ["rigid"] },
    });
    expect(q.json.results[0]).toMatchObject({ class: "rigid", pinned: true });
    const refused = await h.call("POST", "/v1/memory/import", {
      token: admin,
      body: { ...body, replace: true, entries: [{ text: "allow api_key=abcd1234efgh5678" }] },
    });
    expect(refused.status).toBe(422);
    // the refused replace archived nothing
    const still = await h.call("POST", "/v1/memory/query", {
      token: admin,
      body: { namespaces: [`team/${team}/org`], text: "deploy on Friday", classes: ["rigid"] },
    });
    expect(still.json.results).toHaveLength(2);
    const replaced = await h.call("POST", "/v1/memory/import", {
      token: admin,
      body: { ...body, replace: true, entries: [{ text: "Deploys freeze on Fridays" }] },
    });
    expect(replaced.json.archived).toHaveLength(2);
    const now = await h.call("POST", "/v1/memory/query", {
      token: admin,
      body: { namespaces: [`team/${team}/org`], text: "deploy on Friday", classes: ["rigid"] },
    });
    expect(now.json.results.map((r: any) => r.text)).toEqual(["Deploys freeze on Fridays"]);
  });
});

describe("tiers and TTL (the daily sweep over memory)", () => {
  it("expires task namespaces after 7 days from D1 and the index", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const w = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/task/t9`, class: "working", text: "scratch: shard 7 lagging" },
    });
    const keep = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: "scratch: shard 7 lagging" },
    });
    const q = () =>
      h.call("POST", "/v1/memory/query", {
        token: t,
        body: { namespaces: [`team/${team}/task/t9`, `team/${team}/org`], text: "shard 7 lagging" },
      });
    expect((await q()).json.results).toHaveLength(2);
    h.advance(7 * DAY_MS + 1);
    // expired rows are hidden even before the sweep runs
    expect((await q()).json.results.map((r: any) => r.id)).toEqual([keep.json.id]);
    const report = await runDailySweep(h.deps, h.now());
    expect(report.memory.expired).toBeGreaterThanOrEqual(1);
    expect(await memDocCount(team)).toBe(1);
    expect(
      (await h.deps.vectorIndex.query(team, hashEmbed("scratch: shard 7 lagging"), { topK: 10 })).map((m) => m.id),
    ).toEqual([keep.json.id]);
    expect(w.json.id).not.toBe(keep.json.id);
  });

  it("moves idle low-importance memories hot → warm → cold, out of the index, and back to hot on use", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ns = `team/${team}/org`;
    const idle = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "episodic", text: "Old incident: cache stampede after deploy" },
    });
    const pinned = await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: ns, class: "episodic", pinned: true, text: "Pinned: cache stampede protection is mandatory" },
    });
    h.advance(91 * DAY_MS);
    const report = await runDailySweep(h.deps, h.now());
    expect(report.memory.decayed).toBeGreaterThanOrEqual(1);
    expect(report.memory.to_warm).toBeGreaterThanOrEqual(1);
    // the team's memories by id with their tiers; the count says there is no other memory in the team's object
    const reads = teamMemoryReads(h.deps);
    const tiers = async () => {
      const docs = await reads.teamDocs(team, [idle.json.id, pinned.json.id]);
      expect(await reads.teamDocCount(team)).toBe(docs.length);
      return Object.fromEntries(docs.map((d) => [d.id, d.tier]));
    };
    expect(await tiers()).toEqual({ [idle.json.id]: "warm", [pinned.json.id]: "hot" });
    const inIndex = async () =>
      (await h.deps.vectorIndex.query(team, hashEmbed("cache stampede"), { topK: 10 })).map((m) => m.id);
    expect(await inIndex()).toEqual([pinned.json.id]);
    h.advance(180 * DAY_MS);
    await runDailySweep(h.deps, h.now());
    expect((await tiers())[idle.json.id]).toBe("cold");
    const use = await h.call("POST", "/v1/memory/use", { token: t, body: { ids: [idle.json.id] } });
    expect(use.json.boosted).toEqual([idle.json.id]);
    expect((await tiers())[idle.json.id]).toBe("hot");
    expect((await inIndex()).sort()).toEqual([idle.json.id, pinned.json.id].sort());
    h.advance(400 * DAY_MS);
    await runDailySweep(h.deps, h.now()); // → warm
    expect((await tiers())[idle.json.id]).toBe("warm");
    h.advance(181 * DAY_MS);
    // → cold, and a cold unpinned episodic memory older than 365 d is deleted (the sweep spans every team here)
    const last = await runDailySweep(h.deps, h.now());
    expect(last.memory.deleted).toBeGreaterThanOrEqual(1);
    expect(Object.keys(await tiers())).toEqual([pinned.json.id]);
    expect(await inIndex()).toEqual([pinned.json.id]);
  });
});

describe("reindex", () => {
  it("rebuilds a team's index from D1 (e.g. after switching embedders)", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const w = await h.call("POST", "/v1/memory", {
        token: t,
        body: {
          namespace: `team/${team}/org`,
          class: "kb",
          text: `Runbook ${i}: rotate the signing key of service ${i * 11}`,
        },
      });
      ids.push(w.json.id);
    }
    await h.deps.vectorIndex.delete(team, ids);
    const q = () =>
      h.call("POST", "/v1/memory/query", {
        token: t,
        body: { namespaces: [`team/${team}/org`], text: "rotate signing key" },
      });
    expect((await q()).json.results).toEqual([]);
    expect(await h.deps.memory.reindex(team, { batch: 2 })).toEqual({ reindexed: 5 });
    expect((await q()).json.results.map((r: any) => r.id).sort()).toEqual([...ids].sort());
  });
});

describe("memory hints (HintsProvider)", () => {
  it("finds run-start hints by goal and task keys in org and project namespaces", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    await h.call("POST", "/v1/memory", {
      token: t,
      body: {
        namespace: `team/${team}/project/p7`,
        class: "semantic",
        text: "task invoice-extract failed: reason bucket schema_invalid; stricter prompt fixed it",
      },
    });
    const hints = await h.deps.hints.forRunStart(
      team,
      { goal: "Extract invoices", taskKeys: ["invoice-extract"], projectId: "p7" },
      h.now(),
    );
    expect(hints[0]).toMatchObject({ namespace: `team/${team}/project/p7`, class: "semantic" });
    const failure = await h.deps.hints.forTaskFailure(
      team,
      { reasonBucket: "schema_invalid", taskKey: "invoice-extract", runId: "r1", projectId: "p7" },
      h.now(),
    );
    expect(failure).toHaveLength(1);
  });

  it("returns no hints instead of failing when memory is broken or slow", async () => {
    const broken = createMemoryHints({
      query: async () => {
        throw new Error("D1 down");
      },
    } as never);
    expect(await broken.forRunStart("t", { goal: "x", taskKeys: [] }, T0)).toEqual([]);
    const slow = createMemoryHints({ query: () => new Promise(() => {}) } as never, { budgetMs: 20 });
    expect(await slow.forTaskFailure("t", { reasonBucket: "timeout", runId: "r" }, T0)).toEqual([]);
  });
});

describe("OpenAPI", () => {
  it("documents every memory route with its request schema", async () => {
    const h = memoryHarness();
    const doc = (await h.call("GET", "/openapi.json")).json;
    for (const path of [
      "/v1/memory",
      "/v1/memory/bulk",
      "/v1/memory/query",
      "/v1/memory/use",
      "/v1/memory/import",
      "/v1/memory/activate",
      "/v1/sessions/events",
    ]) {
      expect(doc.paths[path]?.post, path).toBeDefined();
      expect(doc.paths[path].post.requestBody).toBeDefined();
    }
    expect(doc.paths["/v1/memory"].post.responses["422"]).toBeDefined();
  });
});
