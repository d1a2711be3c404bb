// A RunEngine harness for pure tests: storage in memory (with injectable faults) and fake ports that record what they get.

import { DEFAULT_ACTIVE_GATE_RULES } from "../../src/features/gates/rules";
import type { MemoryHint } from "../../src/features/memory/hints-port";
import { DEFAULT_COMPILED } from "../../src/features/policy/team-policy-cache";
import type { EngineDeps } from "../../src/features/runs/engine";
import type { RunStorage } from "../../src/features/runs/run-storage-port";
import type { RecordOp } from "../../src/features/runs/store/run-record-port";
import type { WardenEvent } from "../../src/ports/event-bus";

export class MemoryStorage implements RunStorage {
  data = new Map<string, unknown>();
  alarm: number | null = null;
  async get<T>(key: string) {
    return structuredClone(this.data.get(key)) as T | undefined;
  }
  async list<T>({ prefix }: { prefix: string }) {
    const out = new Map<string, T>();
    for (const [k, v] of [...this.data.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (k.startsWith(prefix)) out.set(k, structuredClone(v) as T);
    return out;
  }
  /** how many of the next put calls fail (a storage fault mid-operation) */
  failPuts = 0;
  async put(entries: Record<string, unknown>) {
    if (this.failPuts > 0) {
      this.failPuts--;
      throw new Error("storage unavailable");
    }
    if (Object.keys(entries).length > 128) throw new Error("more than 128 keys in one put");
    for (const [k, v] of Object.entries(entries)) this.data.set(k, structuredClone(v));
  }
  async delete(keys: string[]) {
    let n = 0;
    for (const k of keys) if (this.data.delete(k)) n++;
    return n;
  }
  async getAlarm() {
    return this.alarm;
  }
  async setAlarm(t: number) {
    this.alarm = t;
  }
  async deleteAlarm() {
    this.alarm = null;
  }
}

export function fakes(
  opts: {
    hints?: () => Promise<MemoryHint[]>;
    failureHints?: () => Promise<MemoryHint[]>;
    adjustments?: () => Promise<never[]>;
  } = {},
) {
  const written: RecordOp[][] = [];
  const published: WardenEvent[][] = [];
  const hintCalls: unknown[] = [];
  const control = { failWrites: 0, failPublish: 0 };
  let n = 0;
  const deps = {
    policies: { get: async () => ({ compiled: DEFAULT_COMPILED, ceiling: "enforce" as const }), invalidate: () => {} },
    gateRules: { get: async () => DEFAULT_ACTIVE_GATE_RULES, invalidate: () => {} },
    runRecord: {
      write: async (ops: RecordOp[]) => {
        if (control.failWrites > 0) {
          control.failWrites--;
          throw new Error("D1 unavailable");
        }
        written.push(ops);
      },
      retryAdjustments: opts.adjustments ?? (async () => []),
    },
    events: {
      publish: async (events: WardenEvent[]) => {
        if (control.failPublish > 0) {
          control.failPublish--;
          throw new Error("queue unavailable");
        }
        published.push(events);
      },
    },
    hints: {
      forRunStart: async (...args: unknown[]) => {
        hintCalls.push(args);
        return opts.hints ? opts.hints() : [];
      },
      forTaskFailure: async (...args: unknown[]) => {
        hintCalls.push(args);
        return opts.failureHints ? opts.failureHints() : [];
      },
    },
    policyMemory: {
      snapshot: async () => ({ last_updated: null, entries: [], routing_weights: {}, reset: null, warnings: [] }),
    },
    policyStore: { activateProfile: async () => true },
    gateRuleStore: { activate: async () => true },
    routeLedger: { applyPinRequest: async () => true },
    slackStore: { activateChange: async () => true },
    teamLimitStore: { applyRequest: async () => true },
    deployApproverStore: { applyRequest: async () => true },
    deployApprovers: { forTeam: async () => [] },
    newId: (p: string) => `${p}_${++n}`,
  } as unknown as EngineDeps;
  return { deps, written, published, hintCalls, control };
}
