// What the matrix rows that need no workerd-only behaviour call, so they run in Node over the stand-ins
// (matrix.app.unit.test.ts): the API helpers of test/helpers.ts and test/run-calls.ts, raw requests, the JWT secret.
import type { mintToken } from "../../src/auth/mint";
import type { Scope } from "../../src/auth/tokens";
import type { CallOptions } from "../http";
import type { runCalls, runObjectHelpers } from "../run-calls";
import type { RawAnswer } from "./routes";

type Answer = { status: number; headers: Headers; text: string; json: any };

export type MatrixHelpers = {
  /** the secret the target's capability tokens are signed with */
  secret: string;
  call: (method: string, path: string, opts?: CallOptions) => Promise<Answer>;
  token: (
    teamId?: string,
    scopes?: Scope[],
    extra?: Omit<Partial<Parameters<typeof mintToken>[0]>, "secret">,
  ) => Promise<string>;
  teamTokens: (teamId: string) => Promise<{ worker: string; approver: string; admin: string }>;
  /** a request exactly as given (no helper-added headers), its background work done before it answers */
  raw: (
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: BodyInit },
  ) => Promise<RawAnswer>;
} & ReturnType<typeof runCalls> &
  Pick<ReturnType<typeof runObjectHelpers>, "rows" | "runState" | "fireAlarm" | "setClock">;
