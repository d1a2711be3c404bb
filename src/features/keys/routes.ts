// POST/GET/DELETE /v1/keys (policy:admin) and POST /v1/tokens (bearer: an API key → a capability token ≤ 900 s).
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  EXPIRY_WARNING_MS,
  generateApiKey,
  hashApiKey,
  MAX_KEY_LIFETIME_MS,
  REVOCATION_RECHECK_MS,
} from "../../auth/api-keys";
import { mintToken } from "../../auth/mint";
import { MAX_TOKEN_LIFETIME_S, type Principal, SCOPES, type Scope } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import { applyRateLimits, requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { ApiKeyRow } from "../../ports/api-key-store";
import type { AuditEntry } from "../../ports/audit-log";
import type { KeysNeeds } from "./needs";

const Id = z.string().min(1).max(128);
const ScopeList = z
  .array(z.enum(SCOPES))
  .min(1)
  .max(SCOPES.length)
  .refine((s) => new Set(s).size === s.length, "scopes must not repeat");

const CreateKeyBody = z
  .strictObject({
    subject: z
      .string()
      .regex(/^[\w.:@-]{1,128}$/, "letters, digits and . _ : @ - (the identity tokens from this key carry as sub)"),
    scopes: ScopeList,
    run_id: Id.optional(),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("when the key stops working (ISO 8601, in the future, at most 365 days ahead); absent: never"),
  })
  .meta({
    id: "CreateApiKey",
    example: {
      subject: "agent:builder-7",
      scopes: ["policy:decide", "runs:write"],
      expires_at: "2027-01-31T00:00:00Z",
    },
  });

const KeyView = z
  .object({
    id: z.string(),
    prefix: z.string(),
    subject: z.string(),
    scopes: z.array(z.string()),
    run_id: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    expires_soon: z.boolean().describe("not expired and expires within 7 days: rotate it"),
    last_used_at: z
      .string()
      .nullable()
      .describe("the last token exchange, recorded at most once a minute per key per isolate"),
  })
  .meta({ id: "ApiKey" });

const CreatedKey = KeyView.extend({
  key: z.string().describe("the secret: shown once, stored only as a SHA-256 hash"),
}).meta({ id: "CreatedApiKey" });

const TokenBody = z
  .strictObject({
    scopes: ScopeList.optional().describe("a subset of the key's scopes (default: all of them)"),
    ttl_s: z.number().int().min(1).max(MAX_TOKEN_LIFETIME_S).optional().describe("lifetime, ≤ 900 s (default 900)"),
  })
  .meta({ id: "TokenRequest", example: { scopes: ["policy:decide"], ttl_s: 600 } });

const TokenAnswer = z
  .object({
    token: z.string(),
    expires_at: z.string(),
    key_expires_at: z.string().nullable().describe("when the API key itself expires (null: never)"),
    warning: z.string().optional().describe("set when the API key expires within 7 days (also a `Warning` header)"),
  })
  .meta({ id: "CapabilityToken" });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const expiresSoon = (expiresAt: number | null, now: number) =>
  expiresAt !== null && expiresAt > now && expiresAt - now <= EXPIRY_WARNING_MS;
const view = (r: ApiKeyRow, now: number) => ({
  id: r.id,
  prefix: r.prefix,
  subject: r.subject,
  scopes: r.scopes,
  run_id: r.runId,
  created_by: r.createdBy,
  created_at: new Date(r.createdAt).toISOString(),
  revoked_at: iso(r.revokedAt),
  expires_at: iso(r.expiresAt),
  expires_soon: expiresSoon(r.expiresAt, now),
  last_used_at: iso(r.lastUsedAt),
});

/** the audit row of a key's creation or revocation by the caller, once per key and event */
const keyAudit = (
  p: Principal,
  row: ApiKeyRow,
  event: "created" | "revoked",
  at: number,
  metadata: Record<string, unknown>,
): AuditEntry => ({
  id: `aud_key_${event}:${row.id}`,
  teamId: p.teamId,
  actor: p.subject,
  action: `api_key.${event}`,
  subjectType: "api_key",
  subjectId: row.id,
  metadata,
  createdAt: at,
});

export const keysRoutes = featureApp<KeysNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/keys",
      tags: ["keys"],
      summary: "Creates a team API key (the secret is answered once); its scopes must be within the caller's",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(CreateKeyBody) },
      responses: { 201: jsonResponse(CreatedKey, "the key, with its secret (shown once)"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const p = c.get("principal");
      const body = c.req.valid("json");
      const beyond = body.scopes.filter((s) => !p.scopes.has(s));
      if (beyond.length > 0) {
        throw new AppFailure({
          code: "forbidden",
          message: `cannot grant scopes the caller lacks: ${beyond.join(", ")}`,
        });
      }
      if (p.runId && body.run_id !== p.runId) {
        throw new AppFailure({ code: "forbidden", message: "a run-bound token can only create keys bound to its run" });
      }
      const now = deps.clock.now();
      const expiresAt = body.expires_at === undefined ? null : Date.parse(body.expires_at);
      if (expiresAt !== null && (expiresAt <= now || expiresAt - now > MAX_KEY_LIFETIME_MS)) {
        const message = `expires_at must be in the future and at most ${MAX_KEY_LIFETIME_MS / 86_400_000} days ahead`;
        throw new AppFailure({ code: "validation_failed", message, issues: [{ path: "expires_at", message }] });
      }
      const { prefix, key } = generateApiKey();
      const row: ApiKeyRow = {
        id: deps.newId("key"),
        teamId: p.teamId,
        prefix,
        secretHash: await hashApiKey(key),
        subject: body.subject,
        scopes: body.scopes,
        runId: body.run_id ?? null,
        // the person behind the caller: a key made with a key-issued token belongs to that key's creator
        createdBy: p.keyIssuer ?? p.subject,
        createdAt: now,
        revokedAt: null,
        expiresAt,
        lastUsedAt: null,
      };
      await deps.apiKeyStore.insert(row);
      await deps.auditLog.append([
        keyAudit(p, row, "created", now, {
          prefix,
          subject: row.subject,
          scopes: row.scopes,
          run_id: row.runId,
          expires_at: iso(row.expiresAt),
        }),
      ]);
      return c.json({ ...view(row, now), key }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/keys",
      tags: ["keys"],
      summary: "The team's API keys (never their secrets), newest first",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      responses: { 200: jsonResponse(z.object({ keys: z.array(KeyView) }), "the team's keys"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const rows = await deps.apiKeyStore.list(c.get("principal").teamId);
      const now = deps.clock.now();
      return c.json({ keys: rows.map((r) => view(r, now)) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/v1/keys/{id}",
      tags: ["keys"],
      summary: `Revokes a key: no new tokens from it; its tokens stop within ${REVOCATION_RECHECK_MS / 1000} s (at once on this isolate)`,
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { params: z.object({ id: Id }) },
      responses: { 200: jsonResponse(KeyView, "the revoked key"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const p = c.get("principal");
      const now = deps.clock.now();
      const row = await deps.apiKeyStore.revoke(p.teamId, c.req.valid("param").id, now);
      if (!row) throw new AppFailure({ code: "not_found", message: "no such API key in this team" });
      deps.apiKeys.markRevoked(row.id);
      await deps.auditLog.append([
        keyAudit(p, row, "revoked", row.revokedAt ?? now, { prefix: row.prefix, subject: row.subject }),
      ]);
      return c.json(view(row, now), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/tokens",
      tags: ["keys"],
      summary:
        "Exchanges an API key (Authorization: Bearer wdn_live_…) for a capability token: ≤ 900 s and never past the key's expiry, scopes ⊆ the key's",
      security: [{ apiKey: [] as string[] }],
      request: { body: { ...jsonBody(TokenBody), required: false } },
      responses: { 200: jsonResponse(TokenAnswer, "a capability token"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const key = c.get("apiKey");
      if (!key) throw new AppFailure({ code: "unauthorized", message: c.get("authFailure") ?? "missing API key" });
      const now = deps.clock.now();
      const headers = await applyRateLimits(deps, c.req, key.teamId, key.subject, now);
      const body = c.req.valid("json") ?? {};
      const scopes: Scope[] = body.scopes ?? key.scopes;
      const beyond = scopes.filter((s) => !key.scopes.includes(s));
      if (beyond.length > 0) {
        throw new AppFailure({ code: "forbidden", message: `the API key does not hold: ${beyond.join(", ")}` });
      }
      const nowSeconds = Math.floor(now / 1000);
      // a token never outlives its key
      const keyLeftS =
        key.expiresAt === null ? Number.POSITIVE_INFINITY : Math.floor(key.expiresAt / 1000) - nowSeconds;
      const ttl = Math.max(1, Math.min(body.ttl_s ?? MAX_TOKEN_LIFETIME_S, keyLeftS));
      const token = await mintToken({
        secret: deps.signingKey.secret,
        kid: deps.signingKey.kid,
        teamId: key.teamId,
        scopes,
        sub: key.subject,
        runId: key.runId,
        keyId: key.id,
        keyIssuer: key.createdBy,
        lifetimeSeconds: ttl,
        nowSeconds,
      });
      await deps.apiKeys.recordUse(key.id, now);
      for (const [k, v] of Object.entries(headers)) c.header(k, v);
      const keyExpiresAt = iso(key.expiresAt);
      const warning = expiresSoon(key.expiresAt, now)
        ? `API key ${key.id} expires at ${keyExpiresAt}: create a new key and revoke this one`
        : undefined;
      if (warning) c.header("Warning", `299 warden "${warning}"`);
      return c.json(
        {
          token,
          expires_at: new Date((nowSeconds + ttl) * 1000).toISOString(),
          key_expires_at: keyExpiresAt,
          ...(warning ? { warning } : {}),
        },
        200,
      );
    },
  );
