// Port: typed events to the EVENTS queue (at-least-once; every consumer is idempotent by event_id).
export type WardenEvent = {
  event_id: string;
  type: string;
  team_id: string;
  run_id?: string | null;
  occurred_at: number;
  [field: string]: unknown;
};

export interface EventBus {
  publish(events: WardenEvent[]): Promise<void>;
}
