// Tokens from an API key, refreshed before they expire: the one helper the typed client and the CLI share.
import { createApi, unwrap } from "./api.ts";

/** A token is exchanged again when less than this is left of it (clocks drift; a call takes time). */
export const REFRESH_BEFORE_MS = 60_000;

/** What a session remembers between calls (the CLI keeps it in a 0600 file). */
export type CachedToken = { token: string; expires_at: string; key_expires_at?: string | null; warning?: string };

export type TokenCache = {
  load(): Promise<CachedToken | undefined> | CachedToken | undefined;
  save(t: CachedToken): Promise<void> | void;
};

export type SessionOptions = {
  baseUrl: string;
  /** the API key (`wdn_live_…`) exchanged at POST /v1/tokens */
  key: string;
  /** narrower scopes / shorter lifetime than the key's, as POST /v1/tokens takes them */
  scopes?: string[];
  ttlS?: number;
  fetch?: typeof fetch;
  now?: () => number;
  cache?: TokenCache;
  refreshBeforeMs?: number;
};

export type TokenSession = {
  /** A token with more than `refreshBeforeMs` left: the cached one, or a fresh exchange. */
  token(): Promise<string>;
  /** The last answer of POST /v1/tokens (with its expiry warning, if any). */
  current(): CachedToken | undefined;
};

/** A memory-only cache (the default). */
export function memoryCache(): TokenCache {
  let held: CachedToken | undefined;
  return {
    load: () => held,
    save: (t) => {
      held = t;
    },
  };
}

export function createTokenSession(o: SessionOptions): TokenSession {
  const now = o.now ?? Date.now;
  const cache = o.cache ?? memoryCache();
  const margin = o.refreshBeforeMs ?? REFRESH_BEFORE_MS;
  let held: CachedToken | undefined;
  let inflight: Promise<CachedToken> | undefined;
  const fresh = (t: CachedToken | undefined): t is CachedToken =>
    t !== undefined && Date.parse(t.expires_at) - now() > margin;
  const exchange = async (): Promise<CachedToken> => {
    const api = createApi({ baseUrl: o.baseUrl, token: o.key, ...(o.fetch ? { fetch: o.fetch } : {}) });
    const body = { ...(o.scopes ? { scopes: o.scopes } : {}), ...(o.ttlS ? { ttl_s: o.ttlS } : {}) };
    const got = await unwrap(api.v1.tokens.$post({ json: body as never }));
    const t: CachedToken = { token: got.token, expires_at: got.expires_at, key_expires_at: got.key_expires_at };
    if (got.warning) t.warning = got.warning;
    await cache.save(t);
    return t;
  };
  return {
    async token() {
      if (!fresh(held)) held = await cache.load();
      if (fresh(held)) return held.token;
      // one exchange at a time: parallel callers share it
      inflight ??= exchange().finally(() => {
        inflight = undefined;
      });
      held = await inflight;
      return held.token;
    },
    current: () => held,
  };
}

/** The typed client over an API key: every request carries a token refreshed before it expires. */
export function createKeyApi(o: SessionOptions & { headers?: Record<string, string> }) {
  const session = createTokenSession(o);
  return { session, api: createApi({ ...o, token: session.token }) };
}
