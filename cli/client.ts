// The typed client (src/client/index.ts) for the CLI's commands, imported when a command first calls it: `--help` and usage errors never compile it.
import type * as Client from "../src/client/index.ts";

let loading: Promise<typeof Client> | undefined;
let loaded: typeof Client | undefined;

/** The typed client's module, imported once (hono's client, the token minting and its zod rules come with it). */
export function client(): Promise<typeof Client> {
  loading ??= import("../src/client/index.ts").then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** The client's `unwrap`: the answer's JSON, or a WardenError. */
export const unwrap = (async (call) => (await client()).unwrap(call)) as typeof Client.unwrap;

/** Whether `e` is the client's WardenError (never while the client is not loaded: nothing could have thrown one). */
export function isWardenError(e: unknown): e is Client.WardenError {
  return loaded !== undefined && e instanceof loaded.WardenError;
}
