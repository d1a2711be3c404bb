// missingAcks: which acknowledgements a deploy gate's context asks for that an approval note does not give.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { missingAcks } from "./deploy-acks";

describe("missingAcks", () => {
  it("names each required class the note does not acknowledge as ack:<class>", () => {
    const context = { acks_required: ["vibe_fail", "crank_blocked"] };
    expect(missingAcks(context, "looks fine")).toEqual(["crank_blocked", "vibe_fail"]);
    expect(missingAcks(context, "ok, ack:vibe_fail")).toEqual(["crank_blocked"]);
    expect(missingAcks(context, "ACK:Vibe_Fail, ack:crank_blocked: expected")).toEqual([]);
    expect(missingAcks(context, null)).toEqual(["crank_blocked", "vibe_fail"]);
  });

  it("takes whole tokens only: a prefix or a word glued in front acknowledges nothing", () => {
    const context = { acks_required: ["vibe_fail"] };
    expect(missingAcks(context, "ack:vibe")).toEqual(["vibe_fail"]);
    expect(missingAcks(context, "noack:vibe_fail")).toEqual(["vibe_fail"]);
  });

  it("asks nothing of a gate whose context lists no acknowledgements", () => {
    expect(missingAcks({}, null)).toEqual([]);
    expect(missingAcks({ acks_required: "vibe_fail" }, null)).toEqual([]);
  });

  it("property: a note acknowledging every required class, in any order and any case, misses none", () => {
    const names = fc.uniqueArray(fc.stringMatching(/^[a-z_]{1,12}$/), { maxLength: 6 });
    fc.assert(
      fc.property(names, fc.string({ maxLength: 20 }), (required, noise) => {
        const note = [noise, ...required.map((r) => `ack:${r.toUpperCase()}`).reverse()].join(" ");
        expect(missingAcks({ acks_required: required }, note)).toEqual([]);
        expect(missingAcks({ acks_required: required }, noise.replaceAll("ack:", ""))).toEqual([...required].sort());
      }),
    );
  });
});
