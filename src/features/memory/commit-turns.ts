// Turns per key (a team's memory commits in one isolate): one holder at a time; waiters poll on their own timers.

/** The holder's hand-back: frees the key unless a waiter that gave up on this holder has taken it since. */
export type Release = () => void;

/** Per key with a holder: that holder's number (no entry when the key is free). */
export type Turns = { holders: Map<string, number>; next: number };

export const newTurns = (): Turns => ({ holders: new Map(), next: 0 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the key's turn. Why turns and not a shared commit, and why polling: workerd ties I/O and promise
 * continuations to the request that starts them, so neither a commit one request runs for another's write nor a
 * wake-up one request resolves for another is safe (the local runtime answers "Cannot perform I/O on behalf of a
 * different request" and "Promise will never complete"). Here the holder only deletes a map entry; each waiter looks
 * at it on its own timer, in its own request. A holder whose request ended without releasing (cancelled) would block
 * the key for good, so a waiter goes on after `waitMs` as the new holder: at worst two commits of the key overlap once.
 */
export async function takeTurn(turns: Turns, key: string, waitMs: number, pollMs = 5): Promise<Release> {
  const deadline = Date.now() + waitMs;
  while (turns.holders.has(key) && Date.now() < deadline) await sleep(pollMs);
  // no await between the check and the claim: no other write of this isolate runs in between
  const mine = ++turns.next;
  turns.holders.set(key, mine);
  return () => {
    if (turns.holders.get(key) === mine) turns.holders.delete(key);
  };
}
