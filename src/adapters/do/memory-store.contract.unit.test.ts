// The MemoryStore contract in Node: D1's memory rows over the D1 stand-in, and the team object (VectorIndexDO) hosted
// by the Durable Object stand-in — the suite memory-store.contract.test.ts runs against workerd's.
import { drizzle } from "drizzle-orm/d1";
import { createRecordingEventBus } from "../../../test/fakes/node-stand-ins";
import { nodeD1 } from "../../../test/node-d1/d1";
import { bindNodeObjects } from "../../../test/node-d1/objects";
import { createD1MemoryTeamRegistry } from "../../features/memory/store/memory-team-registry";
import { createD1MemoryStore } from "../d1/memory-store";
import { memoryStoreContract } from "./memory-store.contract";
import { createTeamMemoryStore } from "./team-memory-store";

const env = { DB: await nodeD1() } as unknown as Env;
const { VECTOR_INDEX } = bindNodeObjects(env, createRecordingEventBus());
const db = drizzle(env.DB);

memoryStoreContract("D1 over the Node stand-in", () => createD1MemoryStore(db));
memoryStoreContract("team object over the Node stand-in", () =>
  createTeamMemoryStore(VECTOR_INDEX as never, createD1MemoryStore(db), createD1MemoryTeamRegistry(db)),
);
