// The token vocabulary the Worker and `npm run token` (scripts/token.mjs) share: scopes, lifetime cap, team id rule.
// Import-free, so that plain Node loads it by stripping the types (no TypeScript build, no zod or jose).

export const SCOPES = [
  "policy:decide",
  "policy:admin",
  "runs:read",
  "runs:write",
  "approvals:decide",
  "memory:read",
  "memory:write",
  "events:write",
] as const;
export type Scope = (typeof SCOPES)[number];

export const MAX_TOKEN_LIFETIME_S = 900;

/** a team id is one memory-namespace segment (`team/<team_id>/…`): 1–128 of A-Z a-z 0-9 _ . : @ + - */
export const TEAM_ID_PATTERN = /^[A-Za-z0-9_.:@+-]{1,128}$/;
