// Coalesces items added by concurrent requests of one isolate into one batch handed to a sink (one write, not many).

export type Coalescer<T> = {
  /**
   * Adds items to the pending batch. Returns the flush promise only to the caller that opened the batch (it must keep
   * the isolate alive with waitUntil); later callers share that flush and get null, so only one request per batch
   * lingers after its response.
   */
  add(items: T[]): Promise<void> | null;
  /** the flush of the batch now pending, if any */
  pending(): Promise<void> | null;
};

/** Items wait at most `maxDelayMs`, or until `maxBatch` are pending, then go to `sink` together. */
export function createCoalescer<T>(
  sink: (batch: T[]) => Promise<void>,
  maxBatch: number,
  maxDelayMs: number,
): Coalescer<T> {
  let pending: T[] = [];
  let flushing: Promise<void> | null = null;
  let release: (() => void) | null = null;

  const flush = async () => {
    const batch = pending;
    pending = [];
    flushing = null;
    release = null;
    await sink(batch);
  };

  return {
    add(items) {
      pending.push(...items);
      let opened: Promise<void> | null = null;
      if (!flushing) {
        const timer = new Promise<void>((resolve) => {
          release = resolve;
          setTimeout(resolve, maxDelayMs);
        });
        flushing = opened = timer.then(flush);
      }
      if (pending.length >= maxBatch) release?.();
      return opened;
    },
    pending: () => flushing,
  };
}
