// The Run Trace page's human decisions (each gate: opened, decided or waiting, notes, patches, escalations) and lease lanes.
import { relativeText } from "../../../lib/time-text";
import type { RunOpReply } from "../../runs";
import { formatDuration, type GateStep, isoTime } from "../model";
import { Pill, str, TableSection } from "./cells";

type View = RunOpReply<"view">;
type GateView = View["gates"][number];

/** when a live lease ends unless its holder heartbeats (null without a live lease) */
const leaseExpiry = (lease: unknown): number | null => {
  const at = (lease as { expires_at?: unknown } | null | undefined)?.expires_at;
  return typeof at === "number" ? at : null;
};

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

/** Who opened the gate, when, under which rule (and rules / profile versions), and why. */
function GateOpened({ g }: { g: GateView }) {
  return (
    <div data-field="opened">
      {`opened by ${g.opened_by} at ${isoTime(g.opened_at)} · `}
      <code>{g.rule_id}</code>
      {g.rules_version !== undefined ? <span class="muted">{` (gate rules v${g.rules_version})`}</span> : null}
      {g.profile_version !== undefined ? (
        <span class="muted" data-field="profile_version">{` (MemRL profile v${g.profile_version})`}</span>
      ) : null}
      <div class="muted">{g.reason}</div>
    </div>
  );
}

/** The decision (who, via which channel, how long it waited), or how long the gate has waited and its auto-approval. */
function GateDecided({ g, now }: { g: GateView; now: number }) {
  if (g.decided_at !== undefined) {
    return (
      <div data-field="decided">
        {`${g.decision ?? ""} by `}
        <b data-field="decided_by">{g.decided_by ?? "—"}</b>
        {` via ${g.channel ?? "—"} at ${isoTime(g.decided_at)} · waited ${formatDuration(g.waited_ms ?? g.decided_at - g.opened_at)}`}
        {g.decided_reason ? <div class="muted">{g.decided_reason}</div> : null}
      </div>
    );
  }
  return (
    <div data-field="decided">
      {`waiting for ${formatDuration(now - g.opened_at)}`}
      {g.deadline_at !== undefined ? (
        <span class="muted" data-field="countdown">
          {` · auto-approves ${relativeText(g.deadline_at, now)} (${isoTime(g.deadline_at)})`}
        </span>
      ) : null}
    </div>
  );
}

function GateItem(props: { g: GateView; view: View; link: GateStep | undefined; now: number }) {
  const { g, link } = props;
  return (
    <li id={`gate-${g.gate_id}`} data-gate={g.gate_id} data-outcome={g.outcome ?? "pending"}>
      <b>{g.policy_key}</b> <span class="muted">{g.kind} gate</span> <Pill v={g.outcome ?? g.status} />
      <GateOpened g={g} />
      <GateDecided g={g} now={props.now} />
      {g.note ? (
        <div>
          note: <span data-field="note">{g.note}</span>
        </div>
      ) : null}
      <AppliedPatch view={props.view} gateId={g.gate_id} />
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
}

export function GatesSection(props: { view: View; gateSteps: GateStep[]; now: number }) {
  const { view } = props;
  return (
    <>
      <h2>Human decisions</h2>
      {view.gates.length === 0 ? (
        <p class="muted">No gates.</p>
      ) : (
        <ol id="gates" class="gate-steps">
          {view.gates.map((g) => (
            <GateItem g={g} view={view} link={props.gateSteps.find((x) => x.gate_id === g.gate_id)} now={props.now} />
          ))}
        </ol>
      )}
    </>
  );
}

/** Per order its leases (holder, epoch, heartbeats, how each ended), rescues and when the live lease expires. */
export function LanesSection(props: { orders: View["orders"]; now: number }) {
  return (
    <TableSection
      heading="Lease lanes"
      empty="No orders."
      id="lanes"
      columns={["order", "leases (holder · epoch · heartbeats · end)", "rescues"]}
      rows={props.orders}
      row={(o) => (
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
                {`lease expires ${relativeText(leaseExpiry(o.lease) as number, props.now)}`}
              </div>
            )}
          </td>
        </tr>
      )}
    />
  );
}
