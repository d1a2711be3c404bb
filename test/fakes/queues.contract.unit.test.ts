// The queues contract against the in-process stand-in: nodeWarden({ queues: true }) runs the Worker's own consumers
// when the test drains, so `settle` drains and then the consumers' writes must be there.
import { nodeWarden } from "../node-d1/app";
import { queuesContract } from "./queues-contract";

queuesContract("in-process stand-in", async () => {
  const w = await nodeWarden({ queues: true });
  return {
    events: w.env.EVENTS as unknown as Queue<unknown>,
    db: w.db,
    async settle(done) {
      await w.drain();
      if (!(await done())) throw new Error("drained, but the consumers' writes are not there");
    },
  };
});
