// The OpenAI-compatible extractor's request (decoding, schema mode, budgets) against a fake fetch: no network.
import { describe, expect, it } from "vitest";
import { goldenCases } from "./health/golden.ts";
import type { GoldenCase } from "./health/schema.ts";
import { fitToBudget, INPUT_TOKEN_CAP, openAiExtractor } from "./openai.ts";

function fakeFetch(answer: unknown, status = 200) {
  const calls: Array<{ url: string; body: any; headers: Record<string, string> }> = [];
  const f = (async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(init.body as string), headers: init.headers as Record<string, string> });
    return new Response(JSON.stringify(answer), { status });
  }) as unknown as typeof fetch;
  return { f, calls };
}

describe("openAiExtractor", () => {
  const c = goldenCases()[0] as GoldenCase;

  it("asks the configured base URL at temperature 0, in JSON-schema mode, with at most 200 output tokens", async () => {
    const { f, calls } = fakeFetch({
      choices: [{ message: { content: '{"extracted_fields":{},"used_mem_ids":[]}' } }],
      usage: { prompt_tokens: 120, completion_tokens: 12 },
    });
    const ex = openAiExtractor({ apiKey: "k", baseUrl: "http://llm.local/v1/", fetch: f });
    const r = await ex(c.doc, { memories: [{ id: "mem_1", text: "invoice hint" }] });
    expect(calls[0]?.url).toBe("http://llm.local/v1/chat/completions");
    expect(calls[0]?.headers.authorization).toBe("Bearer k");
    expect(calls[0]?.body).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0,
      max_tokens: 200,
      response_format: { type: "json_schema" },
    });
    expect(calls[0]?.body.response_format.json_schema.schema.required).toEqual(["extracted_fields", "used_mem_ids"]);
    expect(calls[0]?.body.messages[1].content).toContain("[mem_1] invoice hint");
    expect(r).toEqual({ output: '{"extracted_fields":{},"used_mem_ids":[]}', tokens_in: 120, tokens_out: 12 });
  });

  it("adds the stricter instruction on the re-prompt", async () => {
    const { f, calls } = fakeFetch({ choices: [{ message: { content: "{}" } }] });
    await openAiExtractor({ apiKey: "k", fetch: f })(c.doc, { strict: true });
    expect(calls[0]?.body.messages[0].content).toMatch(/previous answer failed the schema/);
  });

  it("fails loudly on an HTTP error instead of inventing an answer", async () => {
    const { f } = fakeFetch({ error: "nope" }, 429);
    await expect(openAiExtractor({ apiKey: "k", fetch: f })(c.doc, {})).rejects.toThrow(/HTTP 429/);
  });

  it("cuts the document so the prompt stays within 800 input tokens", () => {
    const long = "x".repeat(10_000);
    const fitted = fitToBudget("system prompt", long);
    expect(("system prompt".length + fitted.length) / 4).toBeLessThanOrEqual(INPUT_TOKEN_CAP);
    expect(fitToBudget("s", "short")).toBe("short");
  });
});
