// What the keys feature needs: the API key store and checker, the audit log, ids and the current signing key.
import type { ApiKeyAuth } from "../../auth/api-keys";
import type { SigningKey } from "../../auth/tokens";
import type { ApiKeyStore } from "../../ports/api-key-store";
import type { AuditLogStore } from "../../ports/audit-log";

export type KeysNeeds = {
  apiKeyStore: ApiKeyStore;
  apiKeys: ApiKeyAuth;
  auditLog: AuditLogStore;
  newId: (prefix: string) => string;
  signingKey: SigningKey;
};
