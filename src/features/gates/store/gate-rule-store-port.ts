// Port: where each team's versioned gate rule sets live (pending until their policy_deploy gate is approved).

export type StoredGateRules = {
  version: number;
  status: "pending" | "active" | "retired";
  body: unknown;
  createdAt: number;
};

export interface GateRuleStore {
  /** the active set, or null when the team still uses the default matrix */
  active(teamId: string): Promise<StoredGateRules | null>;
  get(teamId: string, version: number): Promise<StoredGateRules | null>;
  /** stores a new pending version (max + 1, at least 1) and returns it */
  addPending(teamId: string, body: unknown, now: number): Promise<number>;
  /** makes `version` active and retires the previous one; false (and no change) unless it is pending */
  activate(teamId: string, version: number, now: number): Promise<boolean>;
}
