// The security matrix in workerd (`npm run test:security`): what only workerd can tell — the run object reset under
// requests (faults), queue redelivery to the real consumers, races on real D1 and run objects (concurrency) and body
// framing — each attack family a row of the summary table printed at the end; the last test fails when any row has a
// failure. Its HTTP rows (tokens, scopes, tenancy, wire bodies, prototype ids, the findings) run in Node
// (matrix.app.unit.test.ts); the fuzz in fuzz*.test.ts.
import { describe, expect, it } from "vitest";
import { token } from "../helpers";
import { isEnvelope, raw } from "./http";
import { check, describeSummary } from "./table";
import "./rows/concurrency";
import "./rows/faults";

describe("wire", () => {
  it("refuses a chunked body over 1 MiB without Content-Length, and Content-Length with Transfer-Encoding", async () => {
    const tok = await token("team-a");
    const chunk = new TextEncoder().encode(`"${"x".repeat(64 * 1024)}",`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 20) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    const big = await raw("POST", "/v1/runs", {
      headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
      body: stream,
    });
    expect(check("wire: framing", big.status === 413 && isEnvelope(big.json)), `chunked → ${big.status}`).toBe(true);
    const both = await raw("POST", "/v1/policy/decide", {
      headers: {
        authorization: `Bearer ${tok}`,
        "content-type": "application/json",
        "content-length": "2",
        "transfer-encoding": "chunked",
      },
      body: "{}",
    });
    const framed = both.status < 500 && (both.status < 400 || isEnvelope(both.json));
    expect(check("wire: framing", framed), `CL+TE → ${both.status}`).toBe(true);
  });
});

describeSummary("security matrix");
