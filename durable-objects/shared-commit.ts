// A shared commit for a Durable Object: calls that arrive while one waits for its write are written together, once.

/**
 * Coalesces concurrent calls into one write. The first waiting call schedules the write on the next timer turn, so the
 * calls the runtime delivers meanwhile (each RPC arrives in its own turn) join it; `writeAll` gets every waiting input
 * and answers one outcome per input, in order, as values (it must not throw). In a Durable Object the callers' answers
 * are still held by the output gate until the write is durable: sharing a write shares its commit, never skips it.
 */
export class SharedCommit<In, Out> {
  private waiting: { input: In; settle: (outcome: Out) => void }[] = [];

  constructor(private readonly writeAll: (inputs: In[]) => Promise<Out[]>) {}

  submit(input: In): Promise<Out> {
    return new Promise((settle) => {
      this.waiting.push({ input, settle });
      if (this.waiting.length === 1) setTimeout(() => void this.write(), 0);
    });
  }

  private async write(): Promise<void> {
    const calls = this.waiting;
    this.waiting = [];
    const outcomes = await this.writeAll(calls.map((c) => c.input));
    for (const [i, c] of calls.entries()) c.settle(outcomes[i] as Out);
  }
}
