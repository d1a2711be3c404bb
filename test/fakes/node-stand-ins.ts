// In-memory stand-ins for what nodeWarden() has no D1 for: the decision log's bucket (held to the DecisionObjects
// contract the R2 adapter passes in workerd) and an EVENTS producer that records what the app published.
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
