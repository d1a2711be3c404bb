// The Durable Object bindings of wrangler.toml (RUN, BOARD, VECTOR_INDEX) over the Node stand-in, for nodeWarden(),
// and the run helpers of test/run-helpers.ts over them.
import { BoardDO } from "../../durable-objects/board-do";
import { RunDO } from "../../durable-objects/run-do";
import { VectorIndexDO } from "../../durable-objects/vector-index-do";
import type { EventBus, WardenEvent } from "../../src/ports/event-bus";
import {
  evictDurableObject,
  type NodeDurableObjectNamespace,
  nodeNamespace,
  runDurableObjectAlarm,
  runInDurableObject,
} from "../fakes/durable-objects";
import { runCalls, runObjectHelpers } from "../run-calls";

export type NodeObjects = {
  RUN: NodeDurableObjectNamespace<RunDO>;
  BOARD: NodeDurableObjectNamespace<BoardDO>;
  VECTOR_INDEX: NodeDurableObjectNamespace<VectorIndexDO>;
};

/**
 * Puts the three namespaces on `env` (their objects get this env, as workerd gives them the Worker's). The run objects
 * publish through env.EVENTS: when the env has none, a producer that hands what they send to `events`.
 */
export function bindNodeObjects(env: Env, events: EventBus): NodeObjects {
  const objects: NodeObjects = {
    RUN: nodeNamespace(RunDO, env),
    BOARD: nodeNamespace(BoardDO, env),
    VECTOR_INDEX: nodeNamespace(VectorIndexDO, env),
  };
  const target = env as unknown as Record<string, unknown>;
  Object.assign(target, objects);
  target.EVENTS ??= {
    send: (body: WardenEvent) => events.publish([body]),
    sendBatch: (messages: { body: WardenEvent }[]) => events.publish(messages.map((m) => m.body)),
  };
  return objects;
}

/** test/run-helpers.ts's helpers (same names and signatures) over a nodeWarden's objects and app. */
export function nodeRunHelpers(w: { objects: NodeObjects; db: D1Database; call: Parameters<typeof runCalls>[0] }) {
  const { RUN } = w.objects;
  const stubFor = (runId: string) => RUN.get(RUN.idFromName(runId));
  const helpers = runObjectHelpers({
    stubFor,
    runIn: runInDurableObject,
    runAlarm: runDurableObjectAlarm,
    evict: evictDurableObject,
    allRuns: async () => RUN.ids().map((id) => RUN.get(id)),
    db: w.db,
  });
  return { stubFor, ...helpers, ...runCalls(w.call, helpers.setClock) };
}
