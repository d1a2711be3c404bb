// Port: the key-value and alarm surface of a Durable Object's storage that the run engine uses.

export interface RunStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  list<T = unknown>(options: { prefix: string }): Promise<Map<string, T>>;
  /** at most 128 entries per call */
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}
