// The security fuzz in Node, shard 2 of 2 (fuzz-node.ts): half of the JSON routes, beside the other half.
import { describeNodeFuzz } from "./fuzz-node";

await describeNodeFuzz(1, 2);
