// The R2 adapters' contracts over the local buckets: DecisionObjects over DECISION_LOG, ArtifactObjects over ARTIFACTS;
// the in-memory fakes pass the same suites in Node (test/fakes/node-stand-ins.contract.unit.test.ts).
import { env } from "cloudflare:test";
import { createR2ArtifactObjects } from "./artifact-objects";
import { artifactObjectsContract } from "./artifact-objects.contract";
import { createR2DecisionObjects } from "./decision-objects";
import { decisionObjectsContract } from "./decision-objects.contract";

decisionObjectsContract("R2", () => createR2DecisionObjects(env.DECISION_LOG));
artifactObjectsContract("R2", () => createR2ArtifactObjects(env.ARTIFACTS));
