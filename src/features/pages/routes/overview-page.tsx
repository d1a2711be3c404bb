// The team overview page (hono/jsx): runs, open gates, dead letters, spend vs budgets, approvals, SLOs, MemRL mode.

import { budgetStanding } from "../../../lib/budget";
import { type DailySlo, formatDuration, formatMs, formatPct, isoTime, type Overview } from "../model";
import { BoardSection, type PersonaRow } from "./board-section";
import { TableSection } from "./cells";
import { Sparkline } from "./charts";
import { Layout } from "./layout";

/** seed 003 §12 SLOs (MVP): p95 LLM step ≤ 6 s, step success ≥ 98 %, dead letters < 1 % */
export const SLO_TARGETS = { step_p95_ms: 6000, success_rate: 0.98, dead_letter_rate: 0.01 } as const;

const verdict = (good: boolean | null) => (good === null ? "muted" : good ? "ok" : "bad");
/** a run's standing by the one definition (src/lib/budget.ts): breached when a step went over budget */
const budgetOf = (r: { tokens_in: number; tokens_out: number; budget_breaches: number }) =>
  budgetStanding(null, r, r.budget_breaches);

/** What the overview shows of gate SLAs: breaches of each and the first-response latency. */
export type GateSlaCard = {
  ack_breaches: number;
  resolve_breaches: number;
  ack_latency_p50_ms: number | null;
  ack_latency_p95_ms: number | null;
  samples: number;
};

function GateSlaCards(props: { sla: GateSlaCard }) {
  const s = props.sla;
  return (
    <>
      <h2>Gate SLAs (last 7 days)</h2>
      <div class="cards" id="gate-sla">
        <div class="card">
          acknowledge SLA missed
          <b data-field="gate_ack_sla_breaches" class={verdict(s.ack_breaches === 0)}>
            {String(s.ack_breaches)}
          </b>
          <span class="muted">gates first answered late, or still unanswered past due</span>
        </div>
        <div class="card">
          resolve SLA missed
          <b data-field="gate_resolve_sla_breaches" class={verdict(s.resolve_breaches === 0)}>
            {String(s.resolve_breaches)}
          </b>
          <span class="muted">gates decided late, or still open past due</span>
        </div>
        <div class="card">
          time to acknowledge p50 / p95
          <b>{`${formatMs(s.ack_latency_p50_ms)} / ${formatMs(s.ack_latency_p95_ms)}`}</b>
          <span class="muted">{`${s.samples} answered gate${s.samples === 1 ? "" : "s"}`}</span>
        </div>
      </div>
    </>
  );
}

type Links = Readonly<Record<string, string>>;

/** A run id that opens its trace page (a signed link minted for this render), anchored where given. */
function RunLink(props: { runId: string; links: Links; anchor?: string; label?: string }) {
  const href = props.links[props.runId];
  const text = <code>{props.label ?? props.runId}</code>;
  return href ? <a href={props.anchor ? `${href}#${props.anchor}` : href}>{text}</a> : text;
}

/** One SLO card: the 7-day figure coloured against its target, the daily sparkline, the target. */
function SloCard(props: {
  label: string;
  field?: string;
  value: number | null;
  meets: (v: number) => boolean;
  format: (v: number | null) => string;
  daily: (number | null)[];
  perDay: string;
  note: string;
}) {
  return (
    <div class="card">
      {props.label}
      <b data-field={props.field} class={verdict(props.value === null ? null : props.meets(props.value))}>
        {props.format(props.value)}
      </b>
      <Sparkline values={props.daily} label={props.perDay} format={props.format} />
      <span class="muted">{props.note}</span>
    </div>
  );
}

/** The last MemRL rollback: when, from which mode to which, on what trigger. */
const rollbackText = (r: Overview["lastRollback"]) =>
  r
    ? `last rollback ${isoTime(r.at)}: ${String(r.metadata.from ?? "?")} → ${String(
        r.metadata.to ?? "?",
      )} (${String(r.metadata.trigger_id ?? r.metadata.metric ?? "trigger")})`
    : "no rollback";

function SloCards({ m }: { m: Overview }) {
  const t = m.slo.total;
  const series = (pick: (d: DailySlo) => number | null) => m.slo.daily.map(pick);
  return (
    <>
      <h2>SLOs (last 7 days)</h2>
      <div class="cards" id="slo">
        <SloCard
          label="step p95"
          value={t.step_p95_ms}
          meets={(v) => v <= SLO_TARGETS.step_p95_ms}
          format={formatMs}
          daily={series((d) => d.step_p95_ms)}
          perDay="step p95 per day"
          note={`target ≤ ${SLO_TARGETS.step_p95_ms} ms`}
        />
        <SloCard
          label="success rate"
          field="success_rate"
          value={t.success_rate}
          meets={(v) => v >= SLO_TARGETS.success_rate}
          format={formatPct}
          daily={series((d) => d.success_rate)}
          perDay="success rate per day"
          note={`${t.steps} steps · target ≥ 98 %`}
        />
        <SloCard
          label="dead-letter rate"
          value={t.dead_letter_rate}
          meets={(v) => v < SLO_TARGETS.dead_letter_rate}
          format={formatPct}
          daily={series((d) => d.dead_letter_rate)}
          perDay="dead-letter rate per day"
          note="target < 1 %"
        />
        <div class="card" id="mode">
          MemRL mode (ceiling)
          <b data-field="mode">{m.mode.ceiling}</b>
          <span class="muted">{rollbackText(m.lastRollback)}</span>
        </div>
      </div>
    </>
  );
}

function ApprovalCards({ m }: { m: Overview }) {
  return (
    <>
      <h2>Approvals (last 7 days)</h2>
      <div class="cards" id="approvals">
        <div class="card">
          approvals<b data-field="approvals">{m.approvals.auto + m.approvals.human}</b>
          <span class="muted">{`${m.approvals.auto} auto · ${m.approvals.human} human`}</span>
        </div>
        <div class="card">
          human latency p50<b>{formatMs(m.humanLatency.p50)}</b>
        </div>
        <div class="card">
          human latency p95<b>{formatMs(m.humanLatency.p95)}</b>
          <span class="muted">{`${m.humanLatency.samples} sample${m.humanLatency.samples === 1 ? "" : "s"}`}</span>
        </div>
      </div>
    </>
  );
}

function OpenGatesSection({ m, links }: { m: Overview; links: Links }) {
  return (
    <TableSection
      heading={`Open gates (${m.openGates.length})`}
      headingId="open-gates-section"
      empty="No gate is waiting."
      id="open-gates"
      columns={["gate", "kind", "run", "age"]}
      rows={m.openGates}
      row={(g) => (
        <tr data-gate={g.gate_id}>
          <td>
            <b>{g.policy_key ?? "?"}</b>{" "}
            <RunLink runId={g.run_id} links={links} anchor={`gate-${g.gate_id}`} label={g.gate_id} />
          </td>
          <td>{g.kind ?? "?"}</td>
          <td>
            <RunLink runId={g.run_id} links={links} />
          </td>
          <td>{formatDuration(m.now - g.opened_at)}</td>
        </tr>
      )}
    />
  );
}

function DeadLettersSection({ m, links }: { m: Overview; links: Links }) {
  return (
    <TableSection
      heading={`Unresolved dead letters (${m.deadLetters.length})`}
      headingId="dead-letters-section"
      empty="None."
      id="dead-letters"
      columns={["reason", "run", "op", "age"]}
      rows={m.deadLetters}
      row={(d) => (
        <tr data-dead-letter={d.id}>
          <td>
            <b>{d.reason_code}</b>
          </td>
          <td>
            <RunLink runId={d.run_id} links={links} anchor="dead-letters" />
          </td>
          <td>
            <code>{d.op_id}</code>
          </td>
          <td>{formatDuration(m.now - d.created_at)}</td>
        </tr>
      )}
    />
  );
}

function RunsSection({ m, links }: { m: Overview; links: Links }) {
  return (
    <TableSection
      heading="Recent runs"
      headingId="runs-section"
      empty="No runs yet."
      id="runs"
      columns={["run", "status", "tokens (in+out)", "budget", { label: "started", class: "hide-sm" }]}
      rows={m.runs}
      row={(r) => (
        <tr data-run={r.run_id}>
          <td>
            <div data-field="goal">{r.goal}</div>
            <RunLink runId={r.run_id} links={links} />
            {r.kind === "control" ? <span class="muted"> (control)</span> : null}
          </td>
          <td>{r.status}</td>
          <td class={budgetOf(r).breached ? "bad" : "ok"}>{r.tokens_in + r.tokens_out}</td>
          <td data-field="budget">
            {budgetOf(r).breached ? `${r.budget_breaches} refused over budget` : "within budget"}
            {r.budget_tokens === null ? null : <span class="muted">{` · order caps ${r.budget_tokens}`}</span>}
          </td>
          <td class="hide-sm">{isoTime(r.created_at)}</td>
        </tr>
      )}
    />
  );
}

function SpendSections({ m }: { m: Overview }) {
  return (
    <>
      <TableSection
        heading="Token spend per persona (last 7 days)"
        empty="No spend."
        id="persona-spend"
        columns={["persona", "in", "out"]}
        rows={m.personaSpend}
        row={(s) => (
          <tr data-persona={s.persona_id ?? ""}>
            <td>{s.persona_id ? <code>{s.persona_id}</code> : <span class="muted">no persona_id</span>}</td>
            <td>{s.tokens_in}</td>
            <td>{s.tokens_out}</td>
          </tr>
        )}
      />
      <TableSection
        heading="Token spend per task (last 7 days)"
        empty="No spend."
        id="spend"
        columns={["task", "in", "out", "order caps"]}
        rows={m.taskSpend}
        row={(s) => (
          <tr>
            <td>
              <code>{s.task_id}</code>
            </td>
            <td>{s.tokens_in}</td>
            <td>{s.tokens_out}</td>
            <td>{s.budget_tokens ?? "—"}</td>
          </tr>
        )}
      />
    </>
  );
}

/**
 * The overview; `runLinks` maps each run id the page shows to its signed trace URL (read-only, minted with the page),
 * so every run, gate and dead letter opens where it lives.
 */
export function OverviewPage(props: {
  teamId: string;
  model: Overview;
  expiresAt: number;
  runLinks: Links;
  personas: readonly PersonaRow[];
  /** the gate SLA figures of the same 7 days (GET /v1/metrics has them per window) */
  sla?: GateSlaCard;
}) {
  const m = props.model;
  const links = props.runLinks;
  return (
    <Layout title={`Team ${props.teamId} · overview`}>
      <p class="muted">Warden · team overview</p>
      <h1>
        Team <span data-field="team">{props.teamId}</span>
      </h1>
      <nav class="muted" id="sections">
        <a href="#runs-section">runs ({m.runs.length})</a> ·{" "}
        <a href="#open-gates-section">open gates ({m.openGates.length})</a> ·{" "}
        <a href="#dead-letters-section">dead letters ({m.deadLetters.length})</a> · <a href="#slo">SLOs</a> ·{" "}
        <a href="#board-section">board ({props.personas.length} personas)</a>
      </nav>
      <SloCards m={m} />
      <ApprovalCards m={m} />
      {props.sla ? <GateSlaCards sla={props.sla} /> : null}
      <OpenGatesSection m={m} links={links} />
      <DeadLettersSection m={m} links={links} />
      <RunsSection m={m} links={links} />
      <BoardSection personas={props.personas} />
      <SpendSections m={m} />
      <footer class="muted">{`Read-only view · link valid until ${isoTime(props.expiresAt)} · rendered ${isoTime(m.now)}`}</footer>
    </Layout>
  );
}
