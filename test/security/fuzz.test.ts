// The security fuzz in workerd, a smoke over the real bindings (local D1, run objects, queues, the Worker's own fetch
// handler): the first bodies of every JSON route's fuzz, the same ones the full run in Node (fuzz-{1,2}.app.unit.test.ts)
// starts with, so a difference between the stand-ins and workerd on hostile input shows up here.

import { env } from "cloudflare:test";
import { call, token } from "../helpers";
import { addOrder, startRun } from "../run-helpers";
import { describeFuzz } from "./fuzz";
import { inProcessSettled, openapi, raw } from "./http";
import { settledWrites, writes } from "./state";
import { describeSummary } from "./table";

/** Bodies per route in workerd: a prefix of the Node fuzz's 1,000. */
const SMOKE_PER_ROUTE = 40;

describeFuzz(
  {
    doc: await openapi(),
    call,
    token,
    startRun,
    addOrder,
    db: env.DB,
    send: (method, path, init) => raw(method, path, init, "in-process"),
    settled: inProcessSettled,
    writes,
    settledWrites,
  },
  { title: "fuzz over workerd's bindings (smoke)", perRoute: SMOKE_PER_ROUTE },
);
describeSummary("security fuzz in workerd");
