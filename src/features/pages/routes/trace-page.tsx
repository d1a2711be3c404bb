// The Run Trace page (hono/jsx): header, work graph, step timeline, chart, policy decisions, gates, memory, dead letters.
import { budgetStanding } from "../../../lib/budget";
import { relativeText } from "../../../lib/time-text";
import { graphProgressText } from "../../board";
import type { RunOpReply } from "../../runs";
import {
  formatDuration,
  formatMs,
  type GateStep,
  isoTime,
  LIVE_STATUSES,
  nextActionFor,
  REFRESH_SECONDS,
  type TraceStep,
} from "../model";
import { StepChart } from "./charts";
import { GraphSvg } from "./graph-svg";
import { Layout } from "./layout";

type View = RunOpReply<"view">;

/** The corrected input a review gate applied (edit and retry): who, when, on which order, the merge patch itself. */
function AppliedPatch({ view, gateId }: { view: View; gateId: string }) {
  const order = view.orders.find((o) => (o.input_patch as { gate_id?: string } | undefined)?.gate_id === gateId);
  if (!order) return null;
  const p = order.input_patch as { patch: unknown; by: string; at: number };
  return (
    <div data-field="input_patch">
      {`input of ${str(order.order_id)} corrected by `}
      <b>{p.by}</b>
      {` at ${isoTime(p.at)}: `}
      <code>{JSON.stringify(p.patch)}</code>
    </div>
  );
}
type Explain = RunOpReply<"explain">;

const GOOD = new Set(["COMPLETE", "PASS", "approved", "auto_allowed", "timed_out", "completed"]);
const BAD = new Set(["DEAD_LETTER", "ERROR", "denied", "aborted", "STOPPED", "fallback_denied", "expired", "revoked"]);
const statusClass = (s: string) => (GOOD.has(s) ? "ok" : BAD.has(s) ? "bad" : "warn");

const Pill = (props: { v: string }) => <span class={`pill ${statusClass(props.v)}`}>{props.v}</span>;
const str = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const time = (v: unknown) => (typeof v === "number" ? isoTime(v) : "—");
/** when a live lease ends unless its holder heartbeats (null without a live lease) */
const leaseExpiry = (lease: unknown): number | null => {
  const at = (lease as { expires_at?: unknown } | null | undefined)?.expires_at;
  return typeof at === "number" ? at : null;
};

export function TracePage(props: {
  teamId: string;
  view: View;
  explain: Explain;
  steps: TraceStep[];
  gateSteps: GateStep[];
  now: number;
  expiresAt: number;
  /** a signed link to one of the run's artifacts (the page's own view token opens them) */
  artifactHref: (artifactId: string) => string;
}) {
  const { view, explain, steps, now } = props;
  const live = LIVE_STATUSES.has(view.status);
  const budget = budgetStanding(view.budget, view.budget.used, view.budget.breaches);
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
          <b data-field="budget" class={budget.breached ? "bad" : undefined}>
            {budget.total_cap === null ? `${budget.used_total} tokens` : `${budget.used_total} / ${budget.total_cap}`}
          </b>
          <span class="muted" data-field="budget-standing">
            {budget.text}
          </span>
        </div>
        <div class="card">
          steps<b>{view.steps_total}</b>
          <span class="muted">{explain.ended ? `ended: ${explain.reason}` : "not settled"}</span>
        </div>
      </div>

      {view.items.length > 0 ? (
        <>
          <h2>Graph</h2>
          <p data-field="graph-progress">{graphProgressText(view.items)}</p>
          <GraphSvg items={view.items} />
        </>
      ) : null}

      <h2>Steps</h2>
      <StepChart steps={steps} />
      {view.steps_total > steps.length ? (
        <p class="muted">{`Showing ${steps.length} of ${view.steps_total} steps.`}</p>
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
              <tr data-step={String(s.number)}>
                <td>{s.number}</td>
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
                  {s.gate_id ? (
                    <a href={`#gate-${s.gate_id}`}>
                      <code class="muted"> {s.gate_id}</code>
                    </a>
                  ) : null}
                  {s.artifacts.map((id) => (
                    <a href={props.artifactHref(id)} data-artifact={id}>
                      <code class="muted"> {id}</code>
                    </a>
                  ))}
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

      <h2>Human decisions</h2>
      {view.gates.length === 0 ? (
        <p class="muted">No gates.</p>
      ) : (
        <ol id="gates" class="gate-steps">
          {view.gates.map((g) => {
            const link = props.gateSteps.find((x) => x.gate_id === g.gate_id);
            return (
              <li id={`gate-${g.gate_id}`} data-gate={g.gate_id} data-outcome={g.outcome ?? "pending"}>
                <b>{g.policy_key}</b> <span class="muted">{g.kind} gate</span> <Pill v={g.outcome ?? g.status} />
                <div data-field="opened">
                  {`opened by ${g.opened_by} at ${isoTime(g.opened_at)} · `}
                  <code>{g.rule_id}</code>
                  {g.rules_version !== undefined ? (
                    <span class="muted">{` (gate rules v${g.rules_version})`}</span>
                  ) : null}
                  {g.profile_version !== undefined ? (
                    <span class="muted" data-field="profile_version">{` (MemRL profile v${g.profile_version})`}</span>
                  ) : null}
                  <div class="muted">{g.reason}</div>
                </div>
                {g.decided_at !== undefined ? (
                  <div data-field="decided">
                    {`${g.decision ?? ""} by `}
                    <b data-field="decided_by">{g.decided_by ?? "—"}</b>
                    {` via ${g.channel ?? "—"} at ${isoTime(g.decided_at)} · waited ${formatDuration(g.waited_ms ?? g.decided_at - g.opened_at)}`}
                    {g.decided_reason ? <div class="muted">{g.decided_reason}</div> : null}
                  </div>
                ) : (
                  <div data-field="decided">
                    {`waiting for ${formatDuration(now - g.opened_at)}`}
                    {g.deadline_at !== undefined ? (
                      <span class="muted" data-field="countdown">
                        {` · auto-approves ${relativeText(g.deadline_at, now)} (${isoTime(g.deadline_at)})`}
                      </span>
                    ) : null}
                  </div>
                )}
                {g.note ? (
                  <div>
                    note: <span data-field="note">{g.note}</span>
                  </div>
                ) : null}
                <AppliedPatch view={view} gateId={g.gate_id} />
                {g.early_refused ? (
                  <div class="bad" data-field="early_refused">
                    {`early ${g.early_refused.decision} by ${g.early_refused.approver} not applied: ${g.early_refused.why}`}
                  </div>
                ) : null}
                {g.escalations?.map((e) => (
                  <div class="bad" data-field="escalation">
                    {`escalation level ${e.level} (${e.level === 1 ? "approvers re-pinged" : "escalation target"}) at ${isoTime(e.at)}`}
                  </div>
                ))}
                {link?.slack_url ? (
                  <a href={link.slack_url} data-field="slack">
                    Slack card
                  </a>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}

      <h2>Lease lanes</h2>
      {view.orders.length === 0 ? (
        <p class="muted">No orders.</p>
      ) : (
        <div class="scroll">
          <table id="lanes">
            <thead>
              <tr>
                <th>order</th>
                <th>leases (holder · epoch · heartbeats · end)</th>
                <th>rescues</th>
              </tr>
            </thead>
            <tbody>
              {view.orders.map((o) => (
                <tr data-order={str(o.order_id)}>
                  <td>
                    <code>{str(o.order_id)}</code>
                    {o.reissued === true ? <div class="muted">reissued</div> : null}
                  </td>
                  <td>
                    {(Array.isArray(o.leases) ? (o.leases as Record<string, unknown>[]) : []).map((l) => (
                      <span class="lease" data-epoch={str(l.epoch)}>
                        {`${str(l.holder)} · e${str(l.epoch)} · ${str(l.heartbeats)} hb · `}
                        <Pill v={str(l.ended ?? "held")} />{" "}
                      </span>
                    ))}
                  </td>
                  <td>
                    {str(o.rescues)}
                    {leaseExpiry(o.lease) === null ? null : (
                      <div class="muted" data-field="lease-expiry">
                        {`lease expires ${relativeText(leaseExpiry(o.lease) as number, now)}`}
                      </div>
                    )}
                  </td>
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
