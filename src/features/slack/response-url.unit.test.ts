// responseUrlAllowed: only Slack's hooks host over HTTPS, or the configured Slack API's origin, may be called (finding 22.5).
import { describe, expect, it } from "vitest";
import { hostOf, responseUrlAllowed } from "./response-url";

const API = "https://slack.com/api/";

describe("responseUrlAllowed", () => {
  it("allows Slack's hooks host over HTTPS and the configured API origin", () => {
    expect(responseUrlAllowed("https://hooks.slack.com/actions/T1/123/abc", API)).toBe(true);
    expect(responseUrlAllowed("http://127.0.0.1:5555/response/1", "http://127.0.0.1:5555/api/")).toBe(true);
  });

  it("refuses any other host, scheme or port, look-alike hosts, and what is not a URL", () => {
    for (const url of [
      "http://hooks.slack.com/actions/T1/1/a",
      "https://hooks.slack.com.evil.example/actions",
      "https://evil.example/?u=https://hooks.slack.com/",
      "https://hooks.slack.com:8443/actions",
      "https://user@evil.example/",
      "http://169.254.169.254/latest/meta-data/",
      "not a url",
      "",
    ]) {
      expect(responseUrlAllowed(url, API), url).toBe(false);
    }
    expect(responseUrlAllowed("http://127.0.0.1:5556/response/1", "http://127.0.0.1:5555/api/")).toBe(false);
  });

  it("names only the host of a refused URL", () => {
    expect(hostOf("https://evil.example/path?token=secret")).toBe("evil.example");
    expect(hostOf("::")).toBe("(not a URL)");
  });
});
