// In-memory stand-ins for what nodeWarden() has no D1 for: the decision log's and the artifacts' buckets (held to the
// DecisionObjects and ArtifactObjects contracts the R2 adapters pass in workerd) and an EVENTS producer that records
// what the app published.
import type { ArtifactObjects } from "../../src/ports/artifact-objects";
import type { DecisionJournal } from "../../src/ports/decision-journal";
import type { DecisionObjects, LoggedDecision } from "../../src/ports/decision-log";
import type { EventBus, WardenEvent } from "../../src/ports/event-bus";

/** A bucket as a sorted map; bodies are strings, so what is stored cannot be changed by a caller. */
export function createMemoryDecisionObjects(): DecisionObjects {
  const objects = new Map<string, string>();
  return {
    async put(key, body) {
      objects.set(key, body);
    },
    async get(key) {
      return objects.get(key) ?? null;
    },
    async list(prefix, startAfter) {
      return [...objects.keys()].filter((k) => k.startsWith(prefix) && k > startAfter).sort();
    },
  };
}

/**
 * The EVENTS producer without its consumer: each publish is recorded (copied), nothing is delivered, so a route whose
 * answer depends only on its own writes runs in Node, and one that needs a consumer's effect stays in workerd.
 */
export function createRecordingEventBus(): EventBus & { published(): WardenEvent[] } {
  const sent: WardenEvent[] = [];
  return {
    published: () => structuredClone(sent),
    async publish(events) {
      sent.push(...structuredClone(events));
    },
  };
}

/**
 * The team objects' decision journals in memory (no team object in Node): each team's appended decisions in order, a
 * repeated decision id skipped as the object skips it; nothing flushes them (no alarm runs in Node).
 */
export function createMemoryDecisionJournal(): DecisionJournal & { journaled(teamId: string): LoggedDecision[] } {
  const byTeam = new Map<string, LoggedDecision[]>();
  return {
    journaled: (teamId) => structuredClone(byTeam.get(teamId) ?? []),
    async append(teamId, decisions) {
      if (decisions.some((d) => d.team_id !== teamId)) throw new Error(`a decision is not of team ${teamId}`);
      const rows = byTeam.get(teamId) ?? [];
      for (const d of decisions) if (!rows.some((r) => r.decision_id === d.decision_id)) rows.push(structuredClone(d));
      byTeam.set(teamId, rows);
    },
  };
}

/**
 * The artifacts bucket (ARTIFACTS) as a sorted map, held to the ArtifactObjects contract the R2 adapter passes in
 * workerd: bytes copied in and out, the SHA-256 checked on put as R2 checks it, pages of `limit` keys whose cursor is
 * the last key given.
 */
export function createMemoryArtifactObjects(): ArtifactObjects {
  const objects = new Map<string, { bytes: Uint8Array; uploadedAt: number }>();
  return {
    async put(key, bytes, meta) {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
      if (hex !== meta.sha256) throw new Error(`put: the SHA-256 of ${key} is not ${meta.sha256}`);
      objects.set(key, { bytes: bytes.slice(), uploadedAt: meta.uploadedAt });
    },
    async get(key) {
      const object = objects.get(key);
      return object ? { body: new Response(object.bytes.slice()).body as never, size: object.bytes.byteLength } : null;
    },
    async delete(keys) {
      for (const key of keys) objects.delete(key);
    },
    async list(prefix, cursor, limit) {
      const keys = [...objects.keys()]
        .filter((k) => k.startsWith(prefix) && (cursor === undefined || k > cursor))
        .sort();
      const page = keys.slice(0, limit);
      return {
        objects: page.map((key) => ({ key, uploadedAt: objects.get(key)?.uploadedAt ?? 0 })),
        cursor: keys.length > limit ? page.at(-1) : undefined,
      };
    },
  };
}
