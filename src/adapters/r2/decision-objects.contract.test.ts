// The DecisionObjects contract against the R2 adapter over the local DECISION_LOG bucket; the in-memory fake passes
// the same suite in Node (test/fakes/node-stand-ins.contract.unit.test.ts).
import { env } from "cloudflare:test";
import { createR2DecisionObjects } from "./decision-objects";
import { decisionObjectsContract } from "./decision-objects.contract";

decisionObjectsContract("R2", () => createR2DecisionObjects(env.DECISION_LOG));
