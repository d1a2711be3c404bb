// Bench: tools/call policy_decide over MCP (POST /mcp, stateless) against POST /v1/policy/decide in the same rounds.
import { alternateAll, type BenchSection, httpRows, type LoadResult, load } from "../harness";
import { DECIDE_BODY } from "./policy";

const CALL_DECIDE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "policy_decide", arguments: JSON.parse(DECIDE_BODY) },
});

export const mcpSection: BenchSection = {
  name: "mcp",
  async run({ server, token }) {
    const bearer = `Bearer ${await token("bench-team", ["policy:decide"])}`;
    const route = { authorization: bearer, "content-type": "application/json" };
    const mcp = { ...route, accept: "application/json, text/event-stream" };
    // a tool error answers 200 too: check once that the call decides before timing it
    const probe = await fetch(`${server.url}/mcp`, { method: "POST", headers: mcp, body: CALL_DECIDE });
    const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: { action?: string } } };
    if (probe.status !== 200 || answer.result?.isError || !answer.result?.structuredContent?.action)
      throw new Error(
        `tools/call policy_decide did not decide: ${probe.status} ${JSON.stringify(answer).slice(0, 300)}`,
      );
    const [viaRoute, viaMcp] = (await alternateAll(3, [
      () => load(`${server.url}/v1/policy/decide`, { method: "POST", headers: route, body: DECIDE_BODY, seconds: 4 }),
      () => load(`${server.url}/mcp`, { method: "POST", headers: mcp, body: CALL_DECIDE, seconds: 4 }),
    ])) as [LoadResult, LoadResult];
    if (viaRoute.non2xx + viaMcp.non2xx > 0) throw new Error("decide answered non-2xx responses");
    return [
      ...httpRows("mcp", "POST /v1/policy/decide (the route)", viaRoute, viaRoute),
      ...httpRows("mcp", "tools/call policy_decide over POST /mcp ÷ the route", viaMcp, viaRoute),
    ];
  },
};
