// The Durable Object contract against workerd's own objects (the bindings of wrangler.toml).
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { durableObjectContract } from "./durable-objects.contract";

durableObjectContract("workerd", async () => ({
  VECTOR_INDEX: env.VECTOR_INDEX as never,
  BOARD: env.BOARD as never,
  runIn: (stub, fn) => runInDurableObject(stub as never, fn as never),
  runAlarm: (stub) => runDurableObjectAlarm(stub as never),
  evict: (stub) => evictDurableObject(stub as never),
}));
