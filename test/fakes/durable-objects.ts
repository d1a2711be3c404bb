// A Node stand-in for the Durable Object runtime: namespaces and ids, RPC stubs, SQLite storage over node:sqlite, alarms.
// Only what durable-objects/*.ts and their tests use; held to workerd by test/fakes/durable-objects.contract.ts.
import { createHash, randomBytes } from "node:crypto";
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { deserialize, serialize } from "node:v8";
import { loadSqlite } from "../node-d1/d1";

const { DatabaseSync: Database } = await loadSqlite();

type Row = Record<string, unknown>;
type Ctor<T> = new (ctx: DurableObjectState, env: never) => T;

/** A binding as SqlStorage takes it: ArrayBuffers and views as blobs. */
function toSqlite(value: unknown): SQLInputValue {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return value as SQLInputValue;
}

/** A value as SqlStorage returns it: blobs as ArrayBuffers. */
function fromSqlite(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row))
    out[k] = v instanceof Uint8Array ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v;
  return out;
}

/** The cursor `sql.exec` returns: rows read once, in order (iteration, toArray, one), and the rows the statement wrote. */
export class NodeSqlCursor<T extends Row> implements Iterable<T> {
  private at = 0;
  constructor(
    private readonly rows: T[],
    readonly rowsWritten: number,
  ) {}
  next(): IteratorResult<T> {
    const row = this.rows[this.at];
    if (row === undefined) return { done: true, value: undefined };
    this.at++;
    return { done: false, value: row };
  }
  [Symbol.iterator](): Iterator<T> {
    return this;
  }
  toArray(): T[] {
    return [...this];
  }
  one(): T {
    const rows = this.toArray();
    if (rows.length !== 1)
      throw new Error(
        `Expected exactly one result from SQL query, but got ${rows.length === 0 ? "no results" : "multiple results"}.`,
      );
    return rows[0] as T;
  }
}

/** `ctx.storage.sql`: each call runs to its end at once (as workerd does for the statements Warden runs). */
export class NodeSqlStorage {
  constructor(private readonly db: DatabaseSync) {}

  exec<T extends Row = Row>(query: string, ...bindings: unknown[]): NodeSqlCursor<T> {
    // several statements (a schema): workerd runs them all; nothing reads such a call's rows
    if (bindings.length === 0 && query.trim().replace(/;\s*$/, "").includes(";")) {
      const before = this.totalChanges();
      this.db.exec(query);
      return new NodeSqlCursor<T>([], this.totalChanges() - before);
    }
    const before = this.totalChanges();
    const rows = (this.db.prepare(query).all(...bindings.map(toSqlite)) as Row[]).map(fromSqlite) as T[];
    return new NodeSqlCursor(rows, this.totalChanges() - before);
  }

  private totalChanges(): number {
    return Number((this.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n);
  }
}

/** The key-value part of SQLite-backed storage (in a `_cf_KV` table, values structured-cloned), alarms and transactions. */
export class NodeDurableObjectStorage {
  readonly sql: NodeSqlStorage;
  private depth = 0;

  constructor(
    private readonly db: DatabaseSync,
    private readonly alarms: { at: number | null },
  ) {
    db.exec("CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB NOT NULL)");
    this.sql = new NodeSqlStorage(db);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const row = this.db.prepare("SELECT value FROM _cf_KV WHERE key = ?").get(key) as { value: Uint8Array } | undefined;
    return row ? (deserialize(row.value) as T) : undefined;
  }

  async list<T>(options: { prefix: string }): Promise<Map<string, T>> {
    const rows = this.db
      .prepare("SELECT key, value FROM _cf_KV WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key")
      .all(options.prefix) as { key: string; value: Uint8Array }[];
    return new Map(rows.map((r) => [r.key, deserialize(r.value) as T]));
  }

  async put(entries: Record<string, unknown>): Promise<void> {
    const keys = Object.keys(entries);
    const insert = this.db.prepare("INSERT OR REPLACE INTO _cf_KV (key, value) VALUES (?, ?)");
    this.transactionSync(() => {
      for (const k of keys) insert.run(k, serialize(entries[k]));
    });
  }

  async delete(keys: string[]): Promise<number> {
    const remove = this.db.prepare("DELETE FROM _cf_KV WHERE key = ?");
    return this.transactionSync(() => keys.reduce((n, k) => n + Number(remove.run(k).changes), 0));
  }

  /** Every write of `fn` or none: a throw rolls them back and is rethrown (nested calls are savepoints). */
  transactionSync<T>(fn: () => T): T {
    const name = `tx${this.depth++}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      this.db.exec(`RELEASE ${name}`);
      return out;
    } catch (error) {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.depth--;
    }
  }

  async getAlarm(): Promise<number | null> {
    return this.alarms.at;
  }
  async setAlarm(at: number | Date): Promise<void> {
    this.alarms.at = typeof at === "number" ? at : at.getTime();
  }
  async deleteAlarm(): Promise<void> {
    this.alarms.at = null;
  }
}

/** A Durable Object id: 64 hex digits, with the name it was made from when it was made from one. */
export class NodeDurableObjectId {
  constructor(
    private readonly hex: string,
    readonly name?: string,
  ) {}
  toString(): string {
    return this.hex;
  }
  equals(other: { toString(): string }): boolean {
    return other.toString() === this.hex;
  }
}

/** One object: its storage (kept across instances), its live instance, and the gate blockConcurrencyWhile holds. */
class ObjectHost<T extends object> {
  private readonly db: DatabaseSync = new Database(":memory:");
  readonly alarm = { at: null as number | null };
  readonly storage = new NodeDurableObjectStorage(this.db, this.alarm);
  private instance: T | undefined;
  private gate: Promise<unknown> | null = null;
  readonly state: DurableObjectState;

  constructor(
    readonly id: NodeDurableObjectId,
    private readonly make: () => T,
  ) {
    this.state = {
      id,
      storage: this.storage,
      blockConcurrencyWhile: (fn: () => Promise<unknown>) => this.block(fn),
      waitUntil: () => {},
    } as unknown as DurableObjectState;
  }

  /** Holds every call until `fn` settles; a throw resets the object (the calls held fail with it, the next rebuilds). */
  private block<R>(fn: () => Promise<R>): Promise<R> {
    let run: Promise<R>;
    try {
      run = Promise.resolve(fn());
    } catch (error) {
      run = Promise.reject(error);
    }
    const gate = run.catch((error) => {
      this.instance = undefined;
      throw error;
    });
    gate.catch(() => undefined);
    this.gate = gate;
    void gate.finally(() => {
      if (this.gate === gate) this.gate = null;
    });
    return run;
  }

  /** The live instance once no gate holds it (built from storage when there is none); a broken gate's error. */
  async ready(): Promise<T> {
    for (;;) {
      this.instance ??= this.make();
      if (!this.gate) return this.instance;
      await this.gate;
    }
  }

  /** One RPC: arguments and result structured-cloned, a throw rethrown as its clone (workerd's serialised error). */
  async call(method: string, args: unknown[]): Promise<unknown> {
    const copied = structuredClone(args);
    const target = (await this.ready()) as Record<string, unknown>;
    const fn = target[method];
    if (typeof fn !== "function" || Object.hasOwn(target, method))
      throw new TypeError(`The RPC receiver does not implement the method "${method}".`);
    try {
      return structuredClone(await fn.apply(target, copied));
    } catch (error) {
      throw structuredClone(error);
    }
  }

  /** Runs the alarm if one is set (cleared first, as workerd does: the handler may set the next); whether it ran. */
  async runAlarm(): Promise<boolean> {
    if (this.alarm.at === null) return false;
    this.alarm.at = null;
    const instance = (await this.ready()) as T & { alarm?: () => Promise<void> };
    await instance.alarm?.();
    return true;
  }

  /** Drops the live instance as the runtime does an idle one; storage stays. */
  async evict(): Promise<void> {
    while (this.gate) await this.gate.catch(() => undefined);
    this.instance = undefined;
  }
}

const hostOfStub = new WeakMap<object, ObjectHost<object>>();

function hostOf(stub: object): ObjectHost<object> {
  const host = hostOfStub.get(stub);
  if (!host) throw new TypeError("not a stub of a Node stand-in namespace");
  return host;
}

/** As cloudflare:test's helper of that name: `fn` gets the live instance and its state. */
export async function runInDurableObject<T, R>(
  stub: object,
  fn: (instance: T, state: DurableObjectState) => R | Promise<R>,
): Promise<R> {
  const host = hostOf(stub);
  return fn((await host.ready()) as T, host.state);
}

/** As cloudflare:test's runDurableObjectAlarm: runs the object's alarm if one is set; whether it ran. */
export const runDurableObjectAlarm = (stub: object): Promise<boolean> => hostOf(stub).runAlarm();

/** As cloudflare:test's evictDurableObject: the instance is dropped once its gate opens; the next call rebuilds it. */
export const evictDurableObject = (stub: object): Promise<void> => hostOf(stub).evict();

/** A namespace binding: ids and stubs; and for the test, the objects it made. */
export class NodeDurableObjectNamespace<T extends object> {
  private readonly hosts = new Map<string, ObjectHost<T>>();

  constructor(
    private readonly className: string,
    private readonly make: (ctx: DurableObjectState) => T,
  ) {}

  idFromName(name: string): NodeDurableObjectId {
    return new NodeDurableObjectId(createHash("sha256").update(`${this.className}\u001f${name}`).digest("hex"), name);
  }

  idFromString(hex: string): NodeDurableObjectId {
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new TypeError("Invalid Durable Object ID: must be 64 hex digits");
    return new NodeDurableObjectId(hex);
  }

  newUniqueId(): NodeDurableObjectId {
    return new NodeDurableObjectId(randomBytes(32).toString("hex"));
  }

  /** A stub: every property but `id` and `name` is a method called over RPC (a stub is not a thenable). */
  get(id: NodeDurableObjectId): DurableObjectStub & Record<string, (...args: unknown[]) => Promise<unknown>> {
    const host = this.host(id);
    const stub = new Proxy({} as never, {
      get: (_t, prop) => {
        if (prop === "id") return id;
        if (prop === "name") return id.name;
        if (typeof prop === "symbol" || prop === "then") return undefined;
        return (...args: unknown[]) => host.call(prop, args);
      },
    });
    hostOfStub.set(stub, host);
    return stub;
  }

  private host(id: { toString(): string; name?: string }): ObjectHost<T> {
    const key = id.toString();
    let host = this.hosts.get(key);
    if (!host) {
      const made: ObjectHost<T> = new ObjectHost<T>(id as NodeDurableObjectId, (): T => this.make(made.state));
      host = made;
      this.hosts.set(key, host);
    }
    return host;
  }

  /** listDurableObjectIds: every object this namespace has made. */
  ids(): NodeDurableObjectId[] {
    return [...this.hosts.values()].map((h) => h.id);
  }
}

/** A namespace of `cls`, its objects built with `env` (which may be filled in after: objects are built on first call). */
export function nodeNamespace<T extends object>(cls: Ctor<T>, env: object): NodeDurableObjectNamespace<T> {
  return new NodeDurableObjectNamespace(cls.name, (ctx) => new cls(ctx, env as never));
}
