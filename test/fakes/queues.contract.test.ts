// The queues contract against miniflare's real queues in workerd: the Worker's EVENTS consumers receive what was sent,
// on miniflare's own schedule (the test config's 50 ms batch window), so each check polls until the consumers' writes
// land.
import { env } from "cloudflare:test";
import { queuesContract } from "./queues-contract";

/** a bound on the wait (four EVENTS deliveries, then the dead-letter queue's, take well under a second when idle) */
const SETTLE_MS = 60_000;
/** how often the consumers' writes are looked for: a few times per batch window */
const POLL_MS = 20;

queuesContract("miniflare queues in workerd", async () => ({
  events: env.EVENTS as Queue<unknown>,
  db: env.DB,
  async settle(done) {
    const deadline = Date.now() + SETTLE_MS;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error("queue deliveries did not land in time");
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  },
}));
