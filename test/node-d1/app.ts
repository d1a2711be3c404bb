// The whole Warden app in Node over the D1 stand-in: routes, middleware and the error mapper as the Worker composes them,
// answered by `app.request()` without workerd — for routes whose services need only D1 (no run or board object, queue
// or R2 behind them); the others stay in the workers project.
import { createApp } from "../../src/app";
import { mintToken } from "../../src/auth/mint";
import type { Scope } from "../../src/auth/tokens";
import { makeDeps } from "../../src/deps";
import { nodeD1 } from "./d1";

const SECRET = "node-test-secret-0123456789abcdef0123456789abcdef";

export async function nodeWarden() {
  const env = { DB: await nodeD1(), WARDEN_JWT_SECRET: SECRET } as unknown as Env;
  const deps = makeDeps(env);
  const app = createApp();
  return {
    db: env.DB,
    token: (teamId: string, scopes: Scope[], sub = `user-${teamId}`) =>
      mintToken({ secret: SECRET, teamId, scopes, sub }),
    /** One request through the app; the answer's status, headers and body (JSON when it parses). */
    async call(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const res = await app.request(path, { method, headers, body }, { deps } as never);
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}
