// The Durable Object contract against the Node stand-in hosting the same classes (RunDO, BoardDO, VectorIndexDO).
import { nodeD1 } from "../node-d1/d1";
import { bindNodeObjects } from "../node-d1/objects";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "./durable-objects";
import { durableObjectContract } from "./durable-objects.contract";
import { createRecordingEventBus } from "./node-stand-ins";

durableObjectContract("Node stand-in", async () => {
  const env = { DB: await nodeD1(), WARDEN_JWT_SECRET: "node-contract-secret-0123456789abcdef" } as unknown as Env;
  const objects = bindNodeObjects(env, createRecordingEventBus());
  return {
    VECTOR_INDEX: objects.VECTOR_INDEX as never,
    BOARD: objects.BOARD as never,
    runIn: runInDurableObject,
    runAlarm: runDurableObjectAlarm,
    evict: evictDurableObject,
  };
});
