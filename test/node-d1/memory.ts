// The memory tests' harness in Node: test/memory-tools.ts over the D1 stand-in and VectorIndexDO hosted by the Durable
// Object stand-in (one env per call, as a workerd test file gets fresh storage).
import { runInDurableObject } from "../fakes/durable-objects";
import { createRecordingEventBus } from "../fakes/node-stand-ins";
import { memoryTools } from "../memory-tools";
import { executionContext, SECRET, wranglerVars } from "./app";
import { nodeD1 } from "./d1";
import { bindNodeObjects } from "./objects";

export { T0 } from "../memory-tools";

/** memoryHarness, freshTeam, memoryToken, memDocCount, teamMemoryRows… with workerd's signatures, and the env. */
export async function nodeMemoryTools() {
  const env = { ...wranglerVars(), DB: await nodeD1(), WARDEN_JWT_SECRET: SECRET } as unknown as Env;
  bindNodeObjects(env, createRecordingEventBus());
  return { env, ...memoryToolsOver(env) };
}

/** the same tools over an env whose objects are bound already (a nodeWarden's: teamMemoryCount beside its `call`) */
export function memoryToolsOver(env: Env) {
  return memoryTools({ env, runIn: runInDurableObject, executionContext: () => executionContext() as never });
}
