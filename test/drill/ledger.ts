// The kill test's load and count: concurrent decisions and memory writes while the drill kills the runtime, then every
// acknowledged decision looked up in the team's R2 objects and every acknowledged memory through the API.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { decodeDecisions, teamPrefix } from "../../src/features/policy/decision-log-layout.ts";
import type { LedgerObservation } from "./ledger-core.ts";

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WORDS = [
  "amber",
  "birch",
  "cobalt",
  "delta",
  "ember",
  "fjord",
  "garnet",
  "harbor",
  "indigo",
  "juniper",
  "kestrel",
];
/** text no other write of the drill shares (its own namespace too, so near-duplicate merging never joins two) */
const noteText = (k: number) =>
  `kill drill note ${k}: ${Array.from({ length: 6 }, (_, i) => WORDS[(k * 7 + i * 3 + Math.floor(k / 11)) % WORDS.length]).join(" ")}`;

export type LedgerLoad = {
  ackedDecisions: Map<string, number>;
  ackedMemories: { namespace: string; id: string; text: string }[];
  /** runs `deciders` decide loops and `writers` memory loops until `stop()` is true */
  drive(opts: { deciders: number; writers: number; stop: () => boolean }): Promise<void>;
};

export function ledgerLoad(api: Api, team: string, tag: string): LedgerLoad {
  const ackedDecisions = new Map<string, number>();
  const ackedMemories: LedgerLoad["ackedMemories"] = [];
  let writes = 0;
  async function decider(stop: () => boolean) {
    for (let i = 0; !stop(); i++) {
      const r = await api("POST", "/v1/policy/decide", {
        memrl_mode: "observe",
        failure_class: ["timeout", "rate_limit", "tool_error"][i % 3],
        attempt: 1 + (i % 4),
        max_attempts: 3,
      });
      if (r.status !== 200) throw new Error(`decide → ${r.status} ${JSON.stringify(r.json)}`);
      ackedDecisions.set(r.json.decision_id, Date.now());
      // ~10 decisions/s from two loops: the local queue holds some at every kill without starving the runs' requests
      await sleep(150);
    }
  }
  async function writer(stop: () => boolean) {
    while (!stop()) {
      const k = writes++;
      const namespace = `team/${team}/project/${tag}-${k}`;
      const text = noteText(k);
      const r = await api("POST", "/v1/memory", { namespace, class: "episodic", text });
      // 200: the same text was already stored (a retry after a kill whose answer was lost): the same memory
      if (r.status !== 201 && r.status !== 200) throw new Error(`memory write → ${r.status} ${JSON.stringify(r.json)}`);
      ackedMemories.push({ namespace, id: r.json.id, text });
      await sleep(200);
    }
  }
  return {
    ackedDecisions,
    ackedMemories,
    async drive({ deciders, writers, stop }) {
      await Promise.all([
        ...Array.from({ length: deciders }, () => decider(stop)),
        ...Array.from({ length: writers }, () => writer(stop)),
      ]);
    },
  };
}

/** Each acknowledged memory's namespace, queried for its own text: the ids found there. */
export async function findMemories(api: Api, load: LedgerLoad): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const queue = [...load.ackedMemories];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let m = queue.shift(); m; m = queue.shift()) {
        const r = await api("POST", "/v1/memory/query", { namespaces: [m.namespace], text: m.text, top_k: 10 });
        if (r.status !== 200) throw new Error(`memory query → ${r.status} ${JSON.stringify(r.json)}`);
        found.set(
          m.namespace,
          r.json.results.map((x: { id: string }) => x.id),
        );
      }
    }),
  );
  return found;
}

/** How many decisions the log's reader counts for the team since `sinceMs` (replay of the active profile). */
export async function readerTotal(api: Api, sinceMs: number): Promise<number> {
  const profile = await api("GET", "/v1/policy/profile");
  const r = await api("POST", "/v1/policy/replay", { profile: profile.json, since: new Date(sinceMs).toISOString() });
  if (r.status !== 200) throw new Error(`replay → ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.total;
}

/**
 * decision_id → lines in the team's objects of the DECISION_LOG bucket, read from the stopped runtime's persisted
 * state (`--persist-to`): the objects themselves, duplicates included, where replay's reader merges them. The local
 * runtime keeps a bucket as an SQLite table of keys (`_mf_objects`, under v3/r2/miniflare-R2BucketObject/) and a
 * file per object (v3/r2/<bucket>/blobs/<blob_id>); a change of that layout fails here loudly, never counts zero.
 */
export function loggedDecisions(persist: string, team: string, bucket = "warden-decision-log"): Map<string, number> {
  const r2 = join(persist, "v3", "r2");
  const dir = join(r2, "miniflare-R2BucketObject");
  const counts = new Map<string, number>();
  let tables = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      const hasObjects = db.prepare("SELECT 1 FROM sqlite_master WHERE name = '_mf_objects'").get();
      if (!hasObjects) continue;
      tables++;
      const rows = db.prepare("SELECT key, blob_id FROM _mf_objects WHERE key LIKE ? || '%'").all(teamPrefix(team)) as {
        key: string;
        blob_id: string | null;
      }[];
      for (const row of rows) {
        const path = join(r2, bucket, "blobs", row.blob_id ?? "");
        if (!row.blob_id || !existsSync(path)) continue; // another bucket's object
        for (const d of decodeDecisions(readFileSync(path, "utf8")))
          counts.set(d.decision_id, (counts.get(d.decision_id) ?? 0) + 1);
      }
    } finally {
      db.close();
    }
  }
  if (tables === 0) throw new Error(`no R2 object table under ${dir}: the local runtime's storage layout changed`);
  return counts;
}

export type { LedgerObservation };
