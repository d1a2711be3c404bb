// The team overview's board section: per persona its cap, leases held, ready and waiting items, and the oldest wait.
import { formatDuration } from "../model";

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
    <>
      <h2 id="board-section">Board: personas</h2>
      {props.personas.length === 0 ? (
        <p class="muted">No personas: no graph items name one, none is registered.</p>
      ) : (
        <div class="scroll">
          <table id="board">
            <thead>
              <tr>
                <th>persona</th>
                <th>cap</th>
                <th>leased</th>
                <th>ready</th>
                <th>waiting</th>
                <th>oldest wait</th>
              </tr>
            </thead>
            <tbody>
              {props.personas.map((p) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
