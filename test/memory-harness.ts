// Memory test harness in workerd: test/memory-tools.ts over the local D1 and VectorIndexDO (cloudflare:test).
import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { memoryTools } from "./memory-tools";

export { T0 } from "./memory-tools";

export const { memoryHarness, freshTeam, memoryToken, memDocCount, teamMemoryRows, teamMemoryCount, d1MemoryRowCount } =
  memoryTools({
    env,
    runIn: (stub, fn) => runInDurableObject(stub as never, fn as never),
    executionContext() {
      const ctx = createExecutionContext();
      return { ctx, settle: () => waitOnExecutionContext(ctx) };
    },
  });
