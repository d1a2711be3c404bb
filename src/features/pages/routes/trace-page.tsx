// The Run Trace page (hono/jsx): header, work graph, step timeline, chart, policy decisions, gates, memory, dead letters.
import { budgetStanding } from "../../../lib/budget";
import { graphProgressText } from "../../board";
import type { RunOpReply } from "../../runs";
import {
  formatMs,
  type GateStep,
  isoTime,
  LIVE_STATUSES,
  nextActionFor,
  REFRESH_SECONDS,
  type TraceStep,
} from "../model";
import { Pill, ScrollTable, str, TableSection } from "./cells";
import { StepChart } from "./charts";
import { GraphSvg } from "./graph-svg";
import { Layout } from "./layout";
import { GatesSection, LanesSection } from "./trace-gates";

type View = RunOpReply<"view">;
type Explain = RunOpReply<"explain">;

const time = (v: unknown) => (typeof v === "number" ? isoTime(v) : "—");

/** The run at a glance: id, status, team, budget standing, steps and whether the run has settled. */
function TraceCards(props: { teamId: string; view: View; explain: Explain }) {
  const { view, explain } = props;
  const budget = budgetStanding(view.budget, view.budget.used, view.budget.breaches);
  return (
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
  );
}

function GraphSection({ items }: { items: View["items"] }) {
  if (items.length === 0) return null;
  return (
    <>
      <h2>Graph</h2>
      <p data-field="graph-progress">{graphProgressText(items)}</p>
      <GraphSvg items={items} />
    </>
  );
}

/** The step chart and one row per step: agent, order, try, outcome, what came next (gate, artifacts), cost. */
function StepsSection(props: { steps: TraceStep[]; stepsTotal: number; artifactHref: (artifactId: string) => string }) {
  const { steps } = props;
  return (
    <>
      <h2>Steps</h2>
      <StepChart steps={steps} />
      {props.stepsTotal > steps.length ? (
        <p class="muted">{`Showing ${steps.length} of ${props.stepsTotal} steps.`}</p>
      ) : null}
      <ScrollTable
        id="steps"
        columns={[
          "#",
          "agent",
          "order",
          "try",
          "outcome",
          "next",
          "latency",
          "tokens in/out",
          { label: "at", class: "hide-sm" },
        ]}
        rows={steps}
        row={(s) => (
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
        )}
      />
    </>
  );
}

function DecisionsSection({ decisions }: { decisions: Explain["decisions"] }) {
  return (
    <TableSection
      heading="Policy decisions"
      empty="No MemRL decisions (no failed attempt asked the policy)."
      id="decisions"
      columns={["order", "try", "rule", "action", "selected", "mode", "next"]}
      rows={decisions}
      row={(d) => (
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
      )}
    />
  );
}

/** The memory hints the run was given and the memories its orders cited (used_mem_ids). */
function MemorySection({ view }: { view: View }) {
  const memIds = view.orders.flatMap((o) =>
    Array.isArray(o.used_mem_ids) ? o.used_mem_ids.map((m) => ({ order: str(o.order_id), id: str(m) })) : [],
  );
  return (
    <>
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
    </>
  );
}

function DeadLettersSection({ deadLetters }: { deadLetters: Explain["dead_letters"] }) {
  return (
    <TableSection
      heading="Dead letters"
      empty="No dead letters."
      id="dead-letters"
      columns={["order", "reason", "when", "next action"]}
      rows={deadLetters}
      row={(d) => (
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
      )}
    />
  );
}

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
  const { view, explain, now } = props;
  const live = LIVE_STATUSES.has(view.status);
  return (
    <Layout title={`Run ${view.run_id} · trace`} refreshSeconds={live ? REFRESH_SECONDS : undefined}>
      <p class="muted">Warden · run trace{live ? ` · live, refreshes every ${REFRESH_SECONDS} s` : ""}</p>
      <h1 data-field="goal">{view.goal}</h1>
      <TraceCards teamId={props.teamId} view={view} explain={explain} />
      <GraphSection items={view.items} />
      <StepsSection steps={props.steps} stepsTotal={view.steps_total} artifactHref={props.artifactHref} />
      <DecisionsSection decisions={explain.decisions} />
      <GatesSection view={view} gateSteps={props.gateSteps} now={now} />
      <LanesSection orders={view.orders} now={now} />
      <MemorySection view={view} />
      <DeadLettersSection deadLetters={explain.dead_letters} />
      <footer class="muted">{`Read-only view · link valid until ${isoTime(props.expiresAt)} · rendered ${isoTime(now)}`}</footer>
    </Layout>
  );
}
