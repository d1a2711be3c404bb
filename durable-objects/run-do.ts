// RunDO: per-run state (lifecycle, orders, leases, gates, timers); its behaviour arrives with the runs feature.
import { DurableObject } from "cloudflare:workers";

export class RunDO extends DurableObject<Env> {}
