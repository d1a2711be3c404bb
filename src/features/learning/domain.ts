// The learning feature's pure entry: the keys of its policy-memory ledger and state, and (types) what others read of it.

/** The ledger's entry_id for a team's retry adjustment of one failure class. */
export const retryEntryId = (teamId: string, failureClass: string) => `retry_adjustment:${teamId}:${failureClass}`;

/** The key of LearningState.entries: skill and context hash. */
export const entryKey = (skill: string, contextHash: string) => `${skill}\u0000${contextHash}`;
export type * from "./policy-memory-port";
export type * from "./store/learning-store-port";
export type * from "./task-memory-port";
