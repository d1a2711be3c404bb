// The security fuzz, shard 3 of 3 (rows/fuzz.ts): a third of the JSON routes, so the three files run in parallel.
import { describeFuzz } from "./rows/fuzz";
import { describeSummary } from "./table";

describeFuzz(2);
describeSummary("security fuzz, shard 3");
