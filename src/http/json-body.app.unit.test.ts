// jsonBody's hand-over to the route validators: the body's bytes are decoded once, and the validator parses the very
// text jsonBody checked (hono's `json()` would otherwise decode the bytes again through a new Response).
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeWarden } from "../../test/node-d1/app";

const w = await nodeWarden();
const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

/** A POST of `body` to /v1/policy/decide, answered without reading the response; and what read a body on the way. */
async function decide(body: string) {
  const rebuilt = vi.spyOn(Response.prototype, "text");
  const token = await w.token("team-json-body", ["policy:decide"]);
  const { response, background } = await w.fetchRaw(
    new Request("https://warden.test/v1/policy/decide", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    }),
  );
  await background;
  const reads = rebuilt.mock.calls.length;
  rebuilt.mockRestore();
  return { status: response.status, json: (await response.json()) as { error: { message: string } }, reads };
}

describe("jsonBody", () => {
  afterEach(() => vi.restoreAllMocks());

  it("hands the checked text to the route's validator: no second decode of the body", async () => {
    const answer = await decide(JSON.stringify(decideBody));
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.reads).toBe(0);
  });

  it("the validator refuses a wrong field of the checked text, with the envelope and no second decode", async () => {
    const answer = await decide(JSON.stringify({ ...decideBody, attempt: "two" }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain("attempt");
    expect(answer.reads).toBe(0);
  });
});
