// A work-board item as the board tests submit it (workerd and Node alike): a goal, no input, a 30 s timeout.

export const item = (item_id: string, extra: Record<string, unknown> = {}) => ({
  item_id,
  goal: `do ${item_id}`,
  input_json: {},
  output_schema_id: "out.v1",
  timeout_sec: 30,
  ...extra,
});
