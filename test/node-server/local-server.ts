// Local Warden servers for process-level tests (`*.node.test.ts`): `npm start` on free ports, ready once /healthz
// answers. The tests share the ONE server the node-server project's global setup starts (`sharedServerUrl()`).
import { inject } from "vitest";
import { waitForHealth } from "./server-process.ts";

export { freePort, type LocalServer, spawnLocalServer, waitForHealth } from "./server-process.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** base URL of the server test/node-server/global-setup.ts started for the node-server project */
    wardenUrl: string;
  }
}

/**
 * The shared server's URL; only in the node-server project (vitest.config.ts), whose global setup starts it without
 * waiting (its start-up overlaps the workers tests): call `sharedServerReady` in a `beforeAll` before using it.
 */
export function sharedServerUrl(): string {
  const url = inject("wardenUrl");
  if (!url) throw new Error("no shared server: this file must be in the node-server project (vitest.config.ts)");
  return url;
}

/** Waits until the shared server answers /healthz (a `beforeAll` of every file that uses it). */
export const sharedServerReady = () => waitForHealth(sharedServerUrl(), 300_000);
/** `beforeAll`'s time limit for `sharedServerReady`, just past its own deadline. */
export const SHARED_SERVER_WAIT_MS = 310_000;
