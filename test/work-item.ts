// A WorkItem v1 for tests: `do <id>`, empty input, one output schema, 30 s, with any field overridden.
import type { WorkItemV1 } from "../contracts/work-item.v1";

export const workItem = (item_id: string, depends_on: string[] = [], extra: Partial<WorkItemV1> = {}): WorkItemV1 => ({
  item_id,
  goal: `do ${item_id}`,
  input_json: {},
  depends_on,
  output_schema_id: "out.v1",
  timeout_sec: 30,
  ...extra,
});
