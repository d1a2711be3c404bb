// A time bound for best-effort work: the work's value, or the fallback once `ms` pass (the work is not cancelled).

/** Resolves to the work's value, or to `fallback` (and `timedOut`) when it takes longer than `ms` or throws. */
export async function within<T>(
  work: Promise<T>,
  ms: number,
  fallback: T,
): Promise<{ value: T; timedOut: boolean; error?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work.then((value) => ({ value, timedOut: false })),
      new Promise<{ value: T; timedOut: boolean }>((resolve) => {
        timer = setTimeout(() => resolve({ value: fallback, timedOut: true }), ms);
      }),
    ]);
  } catch (error) {
    return { value: fallback, timedOut: false, error };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
