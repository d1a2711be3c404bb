// Port: team API keys (the api_key table): rows hold the secret's SHA-256, never the secret.
export type ApiKeyRow = {
  id: string;
  teamId: string;
  prefix: string;
  secretHash: string;
  subject: string;
  scopes: string[];
  runId: string | null;
  createdBy: string;
  createdAt: number;
  revokedAt: number | null;
  /** null: never expires */
  expiresAt: number | null;
  /** the last token exchange, recorded at most once a minute per key per isolate */
  lastUsedAt: number | null;
};

export interface ApiKeyStore {
  insert(row: ApiKeyRow): Promise<void>;
  byPrefix(prefix: string): Promise<ApiKeyRow | null>;
  byId(id: string): Promise<ApiKeyRow | null>;
  /** newest first */
  list(teamId: string): Promise<ApiKeyRow[]>;
  /** Records a use (sets last_used_at). */
  touch(id: string, now: number): Promise<void>;
  /** Sets revoked_at once; answers the row as it now is, or null when the team has no such key. */
  revoke(teamId: string, id: string, now: number): Promise<ApiKeyRow | null>;
}
