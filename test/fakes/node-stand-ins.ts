// In-memory stand-ins for what nodeWarden() has no D1 for: the decision log's bucket (held to the DecisionObjects
// contract the R2 adapter passes in workerd) and an EVENTS producer that records what the app published.
import type { DecisionObjects } from "../../src/ports/decision-log";
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
