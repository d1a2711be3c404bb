// Port: messages that exhausted their retries on the EVENTS queue, kept so GET /v1/metrics can show them.

export type EventDeadLetter = {
  id: string;
  teamId: string | null;
  eventId: string | null;
  type: string | null;
  /** the body as JSON, cut at 8 KiB */
  body: string;
  attempts: number;
  receivedAt: number;
};

export interface EventDeadLetterStore {
  /** idempotent by id (a redelivered dead letter is kept once) */
  record(rows: EventDeadLetter[]): Promise<void>;
}
