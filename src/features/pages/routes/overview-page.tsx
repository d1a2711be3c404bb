// The team overview page (hono/jsx): runs, open gates, dead letters, spend vs budgets, approvals, SLOs, MemRL mode.

import { budgetStanding } from "../../../lib/budget";
import { formatDuration, formatMs, formatPct, isoTime, type Overview } from "../model";
import { BoardSection, type PersonaRow } from "./board-section";
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

/** A run id that opens its trace page (a signed link minted for this render), anchored where given. */
function RunLink(props: { runId: string; links: Readonly<Record<string, string>>; anchor?: string; label?: string }) {
  const href = props.links[props.runId];
  const text = <code>{props.label ?? props.runId}</code>;
  return href ? <a href={props.anchor ? `${href}#${props.anchor}` : href}>{text}</a> : text;
}

/**
 * The overview; `runLinks` maps each run id the page shows to its signed trace URL (read-only, minted with the page),
 * so every run, gate and dead letter opens where it lives.
 */
export function OverviewPage(props: {
  teamId: string;
  model: Overview;
  expiresAt: number;
  runLinks: Readonly<Record<string, string>>;
  personas: readonly PersonaRow[];
  /** the gate SLA figures of the same 7 days (GET /v1/metrics has them per window) */
  sla?: GateSlaCard;
}) {
  const m = props.model;
  const links = props.runLinks;
  const t = m.slo.total;
  const days = m.slo.daily;
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

      <h2>SLOs (last 7 days)</h2>
      <div class="cards" id="slo">
        <div class="card">
          step p95
          <b class={verdict(t.step_p95_ms === null ? null : t.step_p95_ms <= SLO_TARGETS.step_p95_ms)}>
            {formatMs(t.step_p95_ms)}
          </b>
          <Sparkline values={days.map((d) => d.step_p95_ms)} label="step p95 per day" format={formatMs} />
          <span class="muted">{`target ≤ ${SLO_TARGETS.step_p95_ms} ms`}</span>
        </div>
        <div class="card">
          success rate
          <b
            data-field="success_rate"
            class={verdict(t.success_rate === null ? null : t.success_rate >= SLO_TARGETS.success_rate)}
          >
            {formatPct(t.success_rate)}
          </b>
          <Sparkline values={days.map((d) => d.success_rate)} label="success rate per day" format={formatPct} />
          <span class="muted">{`${t.steps} steps · target ≥ 98 %`}</span>
        </div>
        <div class="card">
          dead-letter rate
          <b class={verdict(t.dead_letter_rate === null ? null : t.dead_letter_rate < SLO_TARGETS.dead_letter_rate)}>
            {formatPct(t.dead_letter_rate)}
          </b>
          <Sparkline values={days.map((d) => d.dead_letter_rate)} label="dead-letter rate per day" format={formatPct} />
          <span class="muted">target &lt; 1 %</span>
        </div>
        <div class="card" id="mode">
          MemRL mode (ceiling)
          <b data-field="mode">{m.mode.ceiling}</b>
          <span class="muted">
            {m.lastRollback
              ? `last rollback ${isoTime(m.lastRollback.at)}: ${String(m.lastRollback.metadata.from ?? "?")} → ${String(
                  m.lastRollback.metadata.to ?? "?",
                )} (${String(m.lastRollback.metadata.trigger_id ?? m.lastRollback.metadata.metric ?? "trigger")})`
              : "no rollback"}
          </span>
        </div>
      </div>

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

      {props.sla ? <GateSlaCards sla={props.sla} /> : null}

      <h2 id="open-gates-section">{`Open gates (${m.openGates.length})`}</h2>
      {m.openGates.length === 0 ? (
        <p class="muted">No gate is waiting.</p>
      ) : (
        <div class="scroll">
          <table id="open-gates">
            <thead>
              <tr>
                <th>gate</th>
                <th>kind</th>
                <th>run</th>
                <th>age</th>
              </tr>
            </thead>
            <tbody>
              {m.openGates.map((g) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="dead-letters-section">{`Unresolved dead letters (${m.deadLetters.length})`}</h2>
      {m.deadLetters.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <div class="scroll">
          <table id="dead-letters">
            <thead>
              <tr>
                <th>reason</th>
                <th>run</th>
                <th>op</th>
                <th>age</th>
              </tr>
            </thead>
            <tbody>
              {m.deadLetters.map((d) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="runs-section">Recent runs</h2>
      {m.runs.length === 0 ? (
        <p class="muted">No runs yet.</p>
      ) : (
        <div class="scroll">
          <table id="runs">
            <thead>
              <tr>
                <th>run</th>
                <th>status</th>
                <th>tokens (in+out)</th>
                <th>budget</th>
                <th class="hide-sm">started</th>
              </tr>
            </thead>
            <tbody>
              {m.runs.map((r) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}

      <BoardSection personas={props.personas} />

      <h2>Token spend per persona (last 7 days)</h2>
      {m.personaSpend.length === 0 ? (
        <p class="muted">No spend.</p>
      ) : (
        <div class="scroll">
          <table id="persona-spend">
            <thead>
              <tr>
                <th>persona</th>
                <th>in</th>
                <th>out</th>
              </tr>
            </thead>
            <tbody>
              {m.personaSpend.map((s) => (
                <tr data-persona={s.persona_id ?? ""}>
                  <td>{s.persona_id ? <code>{s.persona_id}</code> : <span class="muted">no persona_id</span>}</td>
                  <td>{s.tokens_in}</td>
                  <td>{s.tokens_out}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Token spend per task (last 7 days)</h2>
      {m.taskSpend.length === 0 ? (
        <p class="muted">No spend.</p>
      ) : (
        <div class="scroll">
          <table id="spend">
            <thead>
              <tr>
                <th>task</th>
                <th>in</th>
                <th>out</th>
                <th>order caps</th>
              </tr>
            </thead>
            <tbody>
              {m.taskSpend.map((s) => (
                <tr>
                  <td>
                    <code>{s.task_id}</code>
                  </td>
                  <td>{s.tokens_in}</td>
                  <td>{s.tokens_out}</td>
                  <td>{s.budget_tokens ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <footer class="muted">{`Read-only view · link valid until ${isoTime(props.expiresAt)} · rendered ${isoTime(m.now)}`}</footer>
    </Layout>
  );
}
