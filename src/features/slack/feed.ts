// The run feed (pure): a run's queued events → one thread in the feed channel: a root message, one status reply
// edited in place with the last steps (RB-05: a busy run edits, it does not flood), and replies for notable steps only.

import { threadKeys } from "../messages/domain";
import type { FeedStep } from "./store/slack-feed-store-port";
import type { SlackOutboxMessage } from "./store/slack-store-port";

/** A message to post (and edit in place): what every feed and alert message is. */
export type SlackPost = Extract<SlackOutboxMessage, { kind: "post" }>;

/** How many steps the status reply shows (as `/warden status` does). */
export const FEED_STATUS_STEPS = 10;

/** A run event as the EVENTS consumer hands it over (fields read defensively: producers may add, never rename). */
export type FeedEvent = { type: string; team_id: string; run_id?: string | null; occurred_at: number } & Record<
  string,
  unknown
>;

const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** The logical outbox keys of a run's feed thread. */
export const feedKeys = {
  /** the thread's root (the same key `/warden new` posts under, so a run started from Slack keeps one root) */
  root: threadKeys.feed,
  status: (runId: string) => `feed:${runId}:status`,
  gate: (runId: string, gateId: string) => `feed:${runId}:gate:${gateId}`,
  completed: (runId: string) => `feed:${runId}:completed`,
};

/** "(4.8s • 153 tokens)" from what the attempt event carries; empty when it carries neither. */
function cost(e: FeedEvent): string {
  const parts: string[] = [];
  const latency = num(e.latency_ms);
  if (latency !== undefined) parts.push(seconds(latency));
  const tokens = e.tokens as { in?: unknown; out?: unknown } | undefined;
  const total = (num(tokens?.in) ?? 0) + (num(tokens?.out) ?? 0);
  if (tokens && typeof tokens === "object") parts.push(`${total} tokens`);
  return parts.length ? ` (${parts.join(" • ")})` : "";
}

/** The most memory ids a step line names; more are counted ("+3 more"). */
export const FEED_MEM_IDS = 3;

/** The memories a completion cites (seed 003 §8 anatomy: `used_mem_ids: team/alpha/org/sop/extract.v1`). */
function usedMemories(e: FeedEvent): string {
  const ids = Array.isArray(e.used_mem_ids) ? e.used_mem_ids.filter((x): x is string => typeof x === "string") : [];
  if (ids.length === 0) return "";
  const more = ids.length > FEED_MEM_IDS ? ` +${ids.length - FEED_MEM_IDS} more` : "";
  return `; used_mem_ids: ${ids
    .slice(0, FEED_MEM_IDS)
    .map((id) => `\`${id}\``)
    .join(", ")}${more}`;
}

const isHumanGate = (e: FeedEvent) => e.kind === "soft" || e.kind === "hard";

/** What one event says, in a line of the status reply (null: the event is not a step of the feed). */
function lineOf(e: FeedEvent): string | null {
  const order = str(e.order_id) ? `order \`${e.order_id}\`` : "";
  const who = [order, str(e.skill)].filter(Boolean).join(" ");
  switch (e.type) {
    case "task.completed":
      return `${who} — ${str(e.outcome) ?? "PASS"}${cost(e)}${usedMemories(e)}`;
    case "task.failed": {
      const cls = str(e.failure_class) ? ` ${e.failure_class}` : "";
      const next = str(e.next) ? ` → ${e.next}` : "";
      return `${who} — ${str(e.outcome) ?? "FAIL"}${cls}${next}${cost(e)}`;
    }
    case "task.blocked":
      return `${who} — blocked${str(e.reason) ? `: ${e.reason}` : ""}`;
    case "gate.opened":
      return `gate \`${str(e.gate_id) ?? "?"}\` (${str(e.kind) ?? "?"}, ${str(e.policy_key) ?? "?"}) opened${order ? ` on ${order}` : ""}`;
    case "gate.decided":
      return `gate \`${str(e.gate_id) ?? "?"}\` ${str(e.status) ?? "decided"} by ${str(e.decided_by) ?? "someone"}`;
    case "run.completed":
      return `run ${str(e.outcome) ?? "completed"}`;
    default:
      return null;
  }
}

/**
 * The step an event adds to its run's feed, or null. Only events a run object emitted (with its `seq`) are steps:
 * the sequence number orders them and makes a redelivered event the same step.
 */
export function feedStepOf(e: FeedEvent): FeedStep | null {
  const seq = num(e.seq);
  const line = lineOf(e);
  if (seq === undefined || line === null || !str(e.run_id)) return null;
  return {
    seq,
    at: e.occurred_at,
    line: `${clock(e.occurred_at)} ${line}`,
    ...(str(e.order_id) ? { order_id: str(e.order_id) } : {}),
  };
}

/**
 * The steps the status reply shows after taking in `incoming`: one per seq, in seq order, the last `max`. A step seen
 * before (a redelivery), or older than everything a full window keeps, changes nothing; arrival order does not matter.
 */
export function mergeFeedSteps(kept: FeedStep[], incoming: FeedStep[], max = FEED_STATUS_STEPS): FeedStep[] {
  const bySeq = new Map<number, FeedStep>();
  for (const s of [...kept, ...incoming]) if (!bySeq.has(s.seq)) bySeq.set(s.seq, s);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-max);
}

/** Whether two step lists show the same steps (the status reply needs no new version). */
export const sameSteps = (a: FeedStep[], b: FeedStep[]) =>
  a.length === b.length && a.every((s, i) => s.seq === b[i]?.seq);

type RunRef = { team_id: string; run_id: string };

const metadata = (run: RunRef, orderId: string | undefined) => ({
  event_type: "warden_run",
  event_payload: { team_id: run.team_id, run_id: run.run_id, order_id: orderId ?? "" },
});

/** The ids a feed message shows in text too (seed 003 §8: ids visible and in metadata). */
const idLine = (run: RunRef, orderId: string | undefined) =>
  `team \`${run.team_id}\` · run \`${run.run_id}\`${orderId ? ` · order \`${orderId}\`` : ""}`;

/**
 * The thread's root when the feed opens it (content version 0: a root `/warden new` or `talk` posted, version 1,
 * is never overwritten by it). `traceLink` is the run's signed trace URL (the shell mints it).
 */
export function feedRootMessage(run: RunRef, orderId: string | undefined, traceLink: string): SlackPost {
  return {
    kind: "post",
    team_id: run.team_id,
    key: feedKeys.root(run.run_id),
    channel: "feed",
    text: `Run \`${run.run_id}\`\n${idLine(run, orderId)} · <${traceLink}|View Trace>`,
    metadata: metadata(run, orderId),
    version: 0,
  };
}

/** The one status reply of a run, edited in place: its version is the feed's (one more per step taken in). */
export function feedStatusMessage(run: RunRef, steps: FeedStep[], version: number): SlackPost {
  const orderId = steps.findLast((s) => s.order_id)?.order_id;
  const lines = steps.map((s) => `• ${s.line}`).join("\n") || "• no steps yet";
  return {
    kind: "post",
    team_id: run.team_id,
    key: feedKeys.status(run.run_id),
    channel: "feed",
    thread_key: feedKeys.root(run.run_id),
    text: `*Status* — last ${Math.min(steps.length, FEED_STATUS_STEPS)} steps\n${lines}\n${idLine(run, orderId)}`,
    metadata: metadata(run, orderId),
    version,
  };
}

/**
 * The reply of a notable step, or null: a soft or hard gate (opened, then the same reply updated when decided) and the
 * run's completion. Attempts are not notable: they only edit the status reply.
 */
export function notableMessage(e: FeedEvent): SlackPost | null {
  const runId = str(e.run_id);
  if (!runId || num(e.seq) === undefined) return null;
  const run = { team_id: e.team_id, run_id: runId };
  const orderId = str(e.order_id);
  const base = {
    kind: "post" as const,
    team_id: e.team_id,
    channel: "feed" as const,
    thread_key: feedKeys.root(runId),
  };
  const ids = idLine(run, orderId);
  const gateId = str(e.gate_id);
  if ((e.type === "gate.opened" || e.type === "gate.decided") && gateId && isHumanGate(e)) {
    const what = `Gate \`${gateId}\` (${e.kind}, ${str(e.policy_key) ?? "?"})`;
    const text =
      e.type === "gate.opened"
        ? `${what} opened — waiting for a decision in the approvals channel`
        : `${what} ${str(e.status) ?? "decided"} by ${str(e.decided_by) ?? "someone"}${num(e.latency_ms) !== undefined ? ` after ${seconds(num(e.latency_ms) ?? 0)}` : ""}`;
    return {
      ...base,
      key: feedKeys.gate(runId, gateId),
      text: `${text}\n${ids}`,
      metadata: metadata(run, orderId),
      version: e.type === "gate.opened" ? 1 : 2,
    };
  }
  if (e.type === "run.completed") {
    const tokens = e.tokens as { in?: unknown; out?: unknown } | undefined;
    const total = (num(tokens?.in) ?? 0) + (num(tokens?.out) ?? 0);
    const facts = [
      `${num(e.steps) ?? 0} steps`,
      `${total} tokens`,
      ...(num(e.duration_ms) !== undefined ? [seconds(num(e.duration_ms) ?? 0)] : []),
      `${num(e.dead_letters) ?? 0} dead letters`,
    ].join(" • ");
    return {
      ...base,
      key: feedKeys.completed(runId),
      text: `Run ${str(e.outcome) ?? "completed"}${str(e.reason) ? `: ${e.reason}` : ""} (${facts})\n${ids}`,
      metadata: metadata(run, orderId),
      version: 1,
    };
  }
  return null;
}
