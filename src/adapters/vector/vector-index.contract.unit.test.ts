// The VectorIndex contract with VectorIndexDO hosted by the Node stand-in, and the fake Vectorize binding's limits.
import { createRecordingEventBus } from "../../../test/fakes/node-stand-ins";
import { nodeD1 } from "../../../test/node-d1/d1";
import { bindNodeObjects } from "../../../test/node-d1/objects";
import { fakeVectorizeContract, vectorIndexContract } from "./vector-index.contract";

const env = { DB: await nodeD1() } as unknown as Env;
vectorIndexContract("Node stand-in", bindNodeObjects(env, createRecordingEventBus()).VECTOR_INDEX as never);
fakeVectorizeContract();
