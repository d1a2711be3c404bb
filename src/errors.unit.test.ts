// The platform's transient failures (a run object reset) map to the one documented 503; every other throw stays internal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { platformFailure, toWire } from "./errors";

/** An Error as the runtime throws it from a Durable Object stub: the message plus its flag properties. */
const flagged = (flags: Record<string, unknown>) => Object.assign(new Error("Durable Object reset"), flags);

describe("platformFailure", () => {
  it("maps a reset, retryable or overloaded stub error to 503 unavailable with Retry-After: 1", () => {
    for (const flag of ["durableObjectReset", "retryable", "overloaded"]) {
      const error = platformFailure(flagged({ [flag]: true }));
      expect(error?.code, flag).toBe("unavailable");
      const wire = toWire(error as NonNullable<typeof error>, "req_1");
      expect(wire.status).toBe(503);
      expect(wire.headers["Retry-After"]).toBe("1");
      expect(wire.body.error).toMatchObject({ code: "unavailable", request_id: "req_1" });
      expect(wire.body.error.message).toMatch(/retry/);
    }
  });

  it("leaves plain errors, non-objects and flags that are not exactly true to the internal 500", () => {
    expect(platformFailure(new Error("boom"))).toBeNull();
    expect(platformFailure(flagged({ durableObjectReset: false, retryable: "true", overloaded: 1 }))).toBeNull();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined)), (v) => {
        expect(platformFailure(v)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.anything()), (props) => {
        const flaggedTrue = ["durableObjectReset", "retryable", "overloaded"].some(
          (k) => Object.hasOwn(props, k) && props[k] === true,
        );
        expect(platformFailure(Object.assign(new Error("x"), props)) !== null).toBe(flaggedTrue);
      }),
    );
  });
});
