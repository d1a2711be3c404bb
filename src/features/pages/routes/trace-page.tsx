// The Run Trace page (hono/jsx): header, step timeline, chart, policy decisions, gates, memory, dead letters.
import type { RunOpReply } from "../../runs";
import {
  formatDuration,
  formatMs,
  isoTime,
  LIVE_STATUSES,
  nextActionFor,
  REFRESH_SECONDS,
  type TraceStep,
} from "../model";
import { StepChart } from "./charts";
import { Layout } from "./layout";

type View = RunOpReply<"view">;
type Explain = RunOpReply<"explain">;

const statusClass = (s: string) =>
  s === "COMPLETE" || s === "PASS" || s === "approved" || s === "auto_allowed"
    ? "ok"
    : s === "DEAD_LETTER" || s === "ERROR" || s === "denied" || s === "aborted" || s === "STOPPED"
      ? "bad"
      : "warn";

const Pill = (props: { v: string }) => <span class={`pill ${statusClass(props.v)}`}>{props.v}</span>;
const str = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const time = (v: unknown) => (typeof v === "number" ? isoTime(v) : "—");

export function TracePage(props: {
  teamId: string;
  view: View;
  explain: Explain;
  steps: TraceStep[];
  now: number;
  expiresAt: number;
}) {
  const { view, explain, steps, now } = props;
  const live = LIVE_STATUSES.has(view.status);
  const b = view.budget;
  const usedTotal = b.used.tokens_in + b.used.tokens_out;
  const memIds = view.orders.flatMap((o) =>
    Array.isArray(o.used_mem_ids) ? o.used_mem_ids.map((m) => ({ order: str(o.order_id), id: str(m) })) : [],
  );
  return (
    <Layout title={`Run ${view.run_id} · trace`} refreshSeconds={live ? REFRESH_SECONDS : undefined}>
      <p class="muted">Warden · run trace{live ? ` · live, refreshes every ${REFRESH_SECONDS} s` : ""}</p>
      <h1 data-field="goal">{view.goal}</h1>
      <div class="cards">
        <div class="card">
          run
          <b>
            <code data-field="run_id">{view.run_id}</code>
          </b>
        </div>
        <div class="card">
          status
          <b data-field="status">
            <Pill v={view.status} />
          </b>
        </div>
        <div class="card">
          team<b data-field="team">{props.teamId}</b>
        </div>
        <div class="card">
          budget used
          <b
            data-field="budget"
            class={b.used.tokens_in > b.input_tokens || b.used.tokens_out > b.output_tokens ? "bad" : undefined}
          >
            {b.used.tokens_in} / {b.input_tokens} in · {b.used.tokens_out} / {b.output_tokens} out
          </b>
          {b.total_tokens !== null ? <span class="muted">{`${usedTotal} / ${b.total_tokens} total`}</span> : null}
        </div>
        <div class="card">
          steps<b>{view.steps_total}</b>
          <span class="muted">{explain.ended ? `ended: ${explain.reason}` : "not settled"}</span>
        </div>
      </div>

      <h2>Steps</h2>
      <StepChart steps={steps} />
      {view.steps_total > steps.length ? (
        <p class="muted">{`Showing the last ${steps.length} of ${view.steps_total} steps.`}</p>
      ) : null}
      <div class="scroll">
        <table id="steps">
          <thead>
            <tr>
              <th>#</th>
              <th>agent</th>
              <th>order</th>
              <th>try</th>
              <th>outcome</th>
              <th>next</th>
              <th>latency</th>
              <th>tokens in/out</th>
              <th class="hide-sm">at</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => (
              <tr data-step={String(s.seq)}>
                <td>{s.seq}</td>
                <td>{s.agent}</td>
                <td>
                  <code>{s.order_id}</code>
                </td>
                <td>{s.attempt}</td>
                <td>
                  <Pill v={s.outcome} />
                  {s.failure_class ? <span class="muted"> {s.failure_class}</span> : null}
                </td>
                <td>
                  {s.next}
                  {s.gate_id ? <code class="muted"> {s.gate_id}</code> : null}
                </td>
                <td>{formatMs(s.latency_ms)}</td>
                <td>
                  {s.tokens_in} / {s.tokens_out}
                </td>
                <td class="hide-sm">{isoTime(s.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Policy decisions</h2>
      {explain.decisions.length === 0 ? (
        <p class="muted">No MemRL decisions (no failed attempt asked the policy).</p>
      ) : (
        <div class="scroll">
          <table id="decisions">
            <thead>
              <tr>
                <th>order</th>
                <th>try</th>
                <th>rule</th>
                <th>action</th>
                <th>selected</th>
                <th>mode</th>
                <th>next</th>
              </tr>
            </thead>
            <tbody>
              {explain.decisions.map((d) => (
                <tr>
                  <td>
                    <code>{str(d.order_id)}</code>
                  </td>
                  <td>{str(d.attempt)}</td>
                  <td>
                    <code data-field="rule_id">{str(d.rule_id)}</code>
                  </td>
                  <td>{str(d.action)}</td>
                  <td>{str(d.selected_action)}</td>
                  <td>{str(d.memrl_mode)}</td>
                  <td>{str(d.next)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Gates</h2>
      {view.gates.length === 0 ? (
        <p class="muted">No gates.</p>
      ) : (
        <div class="scroll">
          <table id="gates">
            <thead>
              <tr>
                <th>gate</th>
                <th>kind</th>
                <th>status</th>
                <th>decided by</th>
                <th>when</th>
                <th>note</th>
              </tr>
            </thead>
            <tbody>
              {view.gates.map((g) => (
                <tr data-gate={g.gate_id}>
                  <td>
                    <b>{g.policy_key}</b>
                    <br />
                    <code class="muted">{g.rule_id}</code>
                    <div class="muted">{g.reason}</div>
                  </td>
                  <td>{g.kind}</td>
                  <td>
                    <Pill v={g.status} />
                    {g.decision ? <div class="muted">{g.decision}</div> : null}
                  </td>
                  <td data-field="decided_by">
                    {g.decided_by ?? (g.status === "pending" ? "waiting" : "—")}
                    <div class="muted">{`opened by ${g.opened_by}`}</div>
                  </td>
                  <td>
                    {g.decided_at !== undefined
                      ? `${isoTime(g.decided_at)} (after ${formatDuration(g.decided_at - g.opened_at)})`
                      : `open for ${formatDuration(now - g.opened_at)}`}
                    {g.deadline_at !== undefined && g.status === "pending" ? (
                      <div class="muted">{`auto at ${isoTime(g.deadline_at)}`}</div>
                    ) : null}
                  </td>
                  <td data-field="note">{g.note ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Memory</h2>
      {view.hints.length === 0 && memIds.length === 0 ? <p class="muted">No memory hints, no memories cited.</p> : null}
      {view.hints.length > 0 ? (
        <ul id="hints">
          {view.hints.map((h) => (
            <li>
              <code>{h.namespace}</code> <span class="muted">{`${h.class} · score ${h.score.toFixed(3)}`}</span>
              <div>{h.text}</div>
            </li>
          ))}
        </ul>
      ) : null}
      {memIds.length > 0 ? (
        <p id="used-mem-ids">
          used_mem_ids:{" "}
          {memIds.map((m) => (
            <span>
              <code>{m.id}</code> <span class="muted">({m.order})</span>{" "}
            </span>
          ))}
        </p>
      ) : null}

      <h2>Dead letters</h2>
      {explain.dead_letters.length === 0 ? (
        <p class="muted">No dead letters.</p>
      ) : (
        <div class="scroll">
          <table id="dead-letters">
            <thead>
              <tr>
                <th>order</th>
                <th>reason</th>
                <th>when</th>
                <th>next action</th>
              </tr>
            </thead>
            <tbody>
              {explain.dead_letters.map((d) => (
                <tr>
                  <td>
                    <code>{str(d.order_id)}</code>
                    <div class="muted">{str(d.task_id)}</div>
                  </td>
                  <td>
                    <b>{str(d.reason_code)}</b>
                    {d.failure_class ? <div class="muted">{str(d.failure_class)}</div> : null}
                  </td>
                  <td>{time(d.created_at)}</td>
                  <td>
                    {d.resolved_at
                      ? `resolved by ${str(d.resolver)} at ${time(d.resolved_at)}`
                      : nextActionFor(str(d.reason_code))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <footer class="muted">{`Read-only view · link valid until ${isoTime(props.expiresAt)} · rendered ${isoTime(now)}`}</footer>
    </Layout>
  );
}
