// The CLI's target (pure): no silent default server, the one saved login's server, loopback spellings matched.
import { describe, expect, it } from "vitest";
import type { Login } from "./credentials.ts";
import { CliExit } from "./io.ts";
import { resolveTarget, serverKey } from "./target.ts";

const login = (key: string): Login => ({ key, token: "t", expires_at: "2030-01-01T00:00:00Z" });
const failure = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof CliExit ? { code: e.code, message: e.message } : { code: -1, message: String(e) };
  }
  return null;
};

describe("resolveTarget", () => {
  it("never defaults silently: no URL and no saved login exits 2 saying how to set one", () => {
    const f = failure(() => resolveTarget({ source: undefined }, {}));
    expect(f?.code).toBe(2);
    expect(f?.message).toMatch(/--url .*WARDEN_URL.*warden login/);
  });

  it("uses the one saved login's server; several saved logins must be chosen between", () => {
    const one = { "http://w.example": login("k1") };
    expect(resolveTarget({ source: undefined }, one)).toEqual({
      url: "http://w.example",
      source: "saved login",
      login: { url: "http://w.example", login: one["http://w.example"] },
    });
    const two = { ...one, "http://localhost:8787": login("k2") };
    const f = failure(() => resolveTarget({ source: undefined }, two));
    expect(f?.code).toBe(2);
    expect(f?.message).toContain("http://w.example, http://localhost:8787");
  });

  it("matches a saved login however the loopback host is spelled (127.0.0.1 vs localhost), not another port", () => {
    const logins = { "http://localhost:8787": login("k") };
    const t = resolveTarget({ url: "http://127.0.0.1:8787/", source: "WARDEN_URL" }, logins);
    expect(t).toMatchObject({
      url: "http://127.0.0.1:8787",
      source: "WARDEN_URL",
      login: { url: "http://localhost:8787" },
    });
    expect(resolveTarget({ url: "http://127.0.0.1:8790", source: "--url" }, logins).login).toBeUndefined();
    expect(resolveTarget({ url: "https://w.example", source: "--url" }, logins).login).toBeUndefined();
  });

  it("refuses a URL that is not http(s) with exit 2", () => {
    expect(failure(() => resolveTarget({ url: "localhost:8787", source: "--url" }, {}))?.code).toBe(2);
    expect(failure(() => resolveTarget({ url: "ftp://x", source: "--url" }, {}))?.code).toBe(2);
  });
});

describe("serverKey", () => {
  it("treats loopback spellings and default ports as one server, and other hosts, ports or schemes as others", () => {
    expect(serverKey("http://localhost:8787")).toBe(serverKey("http://127.0.0.1:8787/"));
    expect(serverKey("http://[::1]:8787")).toBe(serverKey("http://localhost:8787"));
    expect(serverKey("https://w.example")).toBe(serverKey("https://w.example:443/"));
    expect(serverKey("http://localhost:8787")).not.toBe(serverKey("http://localhost:8788"));
    expect(serverKey("http://w.example")).not.toBe(serverKey("https://w.example"));
  });
});
