// The security matrix's rows that need no workerd-only behaviour, in Node through the whole app's `app.request()` over
// the stand-ins (D1, run objects; each held to workerd by its contract suite): tokens, scopes, cross-team access,
// wire bodies, prototype ids and the findings' rows. Workerd keeps the faults, concurrency and framing rows
// (matrix.test.ts).
import { helpersOver, nodeWarden, SECRET } from "../node-d1/app";
import { describeHttpRows } from "./matrix-http";
import { readRaw } from "./routes";
import { describeEarlyApprovals } from "./rows/early-approvals";
import { describeGuardedFields } from "./rows/guarded-fields";
import { describeLeasesBudget } from "./rows/leases-budget";
import { describeMalformedIds } from "./rows/malformed-ids";
import { describeRunBoundAdmin } from "./rows/run-bound-admin";
import { describeSelfIssuedKeys } from "./rows/self-issued-keys";
import { describeSummary } from "./table";

const w = await nodeWarden();
const h = {
  ...helpersOver(w),
  secret: SECRET,
  async raw(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
    const { response, background } = await w.fetchRaw(new Request(`https://warden.test${path}`, { method, ...init }));
    const answer = await readRaw(response);
    await background;
    return answer;
  },
};

describeHttpRows(h);
describeEarlyApprovals(h);
describeLeasesBudget(h);
describeRunBoundAdmin(h);
describeGuardedFields(h);
describeSelfIssuedKeys(h);
describeMalformedIds(h);
describeSummary("security matrix in Node");
