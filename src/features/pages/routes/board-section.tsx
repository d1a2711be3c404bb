// The team overview's board section: per persona its cap, leases held, ready and waiting items, and the oldest wait.
import { formatDuration } from "../model";
import { TableSection } from "./cells";

/** A persona as GET /v1/personas lists it (the board's live figures). */
export type PersonaRow = {
  persona_id: string;
  name: string;
  concurrency_limit: number;
  enabled: boolean;
  leased: number;
  ready: number;
  waiting: number;
  oldest_ready_age_ms: number | null;
};

export function BoardSection(props: { personas: readonly PersonaRow[] }) {
  return (
    <TableSection
      heading="Board: personas"
      headingId="board-section"
      empty="No personas: no graph items name one, none is registered."
      id="board"
      columns={["persona", "cap", "leased", "ready", "waiting", "oldest wait"]}
      rows={props.personas}
      row={(p) => (
        <tr data-persona={p.persona_id} class={p.leased >= p.concurrency_limit ? "warn" : undefined}>
          <td>
            <code>{p.persona_id}</code> <span class="muted">{p.name}</span>
            {p.enabled ? null : <b class="bad"> disabled</b>}
          </td>
          <td data-field="cap">{p.concurrency_limit}</td>
          <td data-field="leased">{p.leased}</td>
          <td data-field="ready">{p.ready}</td>
          <td data-field="waiting">{p.waiting}</td>
          <td data-field="oldest-wait">
            {p.oldest_ready_age_ms === null ? "—" : formatDuration(p.oldest_ready_age_ms)}
          </td>
        </tr>
      )}
    />
  );
}
