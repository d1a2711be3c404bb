// The queues contract against miniflare's real queues in workerd: the Worker's EVENTS consumers receive what was sent,
// on miniflare's own schedule (max_batch_timeout), so each check polls until the consumers' writes land.
import { env } from "cloudflare:test";
import { queuesContract } from "./queues-contract";

/** a bound on the wait: four EVENTS deliveries a second apart, then the dead-letter queue's */
const SETTLE_MS = 60_000;

queuesContract("miniflare queues in workerd", async () => ({
  events: env.EVENTS as Queue<unknown>,
  db: env.DB,
  async settle(done) {
    const deadline = Date.now() + SETTLE_MS;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error("queue deliveries did not land in time");
      await new Promise((r) => setTimeout(r, 200));
    }
  },
}));
