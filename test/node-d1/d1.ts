// An in-memory D1 database for Node tests: node:sqlite behind the part of D1's API Warden uses (prepare, bind, first,
// all, raw, run, batch as one transaction, exec), with the project's migrations applied. Held to D1's behaviour by the
// D1 contract (test/node-d1/d1-contract.ts), which also runs against workerd's local D1.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";

/** node:sqlite prints an ExperimentalWarning on first load; it says nothing about the code under test. */
export async function loadSqlite(): Promise<typeof import("node:sqlite")> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes("SQLite")) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
}

type Row = Record<string, unknown>;

/** D1's own refusal for a value it cannot bind (D1 binds booleans as 1/0 and refuses undefined). */
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined) throw new Error("D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return value as SQLInputValue;
}

/** A row as D1 returns it: a plain object, blobs as arrays of bytes. */
function fromSqlite(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Uint8Array ? [...v] : v;
  return out;
}

const meta = (changes = 0, lastRowId = 0) => ({
  changes,
  last_row_id: lastRowId,
  changed_db: changes > 0,
  duration: 0,
  rows_read: 0,
  rows_written: changes,
  size_after: 0,
  served_by: "node-d1",
});

class NodeD1Statement {
  constructor(
    private readonly db: DatabaseSync,
    private readonly sql: string,
    private readonly params: SQLInputValue[] = [],
  ) {}

  bind(...values: unknown[]): NodeD1Statement {
    return new NodeD1Statement(this.db, this.sql, values.map(toSqlite));
  }

  private statement(): StatementSync {
    return this.db.prepare(this.sql);
  }

  /** Synchronous forms, so a batch runs inside one transaction without yielding. */
  rows(): Row[] {
    return (this.statement().all(...this.params) as Row[]).map(fromSqlite);
  }

  execute() {
    const stmt = this.statement();
    // a statement that returns rows (SELECT, or a write with RETURNING) is read as rows; its changes are counted too
    if (stmt.columns().length > 0) {
      const before = this.totalChanges();
      const results = (stmt.all(...this.params) as Row[]).map(fromSqlite);
      return { success: true as const, results, meta: meta(this.totalChanges() - before) };
    }
    const r = stmt.run(...this.params);
    return { success: true as const, results: [] as Row[], meta: meta(Number(r.changes), Number(r.lastInsertRowid)) };
  }

  private totalChanges(): number {
    return Number((this.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n);
  }

  async first<T = Row>(column?: string): Promise<T | null> {
    const row = this.rows()[0];
    if (!row) return null;
    if (column === undefined) return row as T;
    if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
    return row[column] as T;
  }

  async all<T = Row>() {
    return this.execute() as { success: true; results: T[]; meta: ReturnType<typeof meta> };
  }

  async run<T = Row>() {
    return this.execute() as { success: true; results: T[]; meta: ReturnType<typeof meta> };
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    const stmt = this.statement();
    const names = stmt.columns().map((c) => c.name);
    stmt.setReturnArrays(true);
    const rows = (stmt.all(...this.params) as unknown as unknown[][]).map((r) =>
      r.map((v) => (v instanceof Uint8Array ? [...v] : v)),
    );
    return (options?.columnNames ? [names, ...rows] : rows) as T[];
  }
}

/** A D1Database over one in-memory SQLite database. */
export class NodeD1 {
  private constructor(private readonly db: DatabaseSync) {}

  static async open(): Promise<NodeD1> {
    const { DatabaseSync } = await loadSqlite();
    return new NodeD1(new DatabaseSync(":memory:"));
  }

  prepare(sql: string): NodeD1Statement {
    return new NodeD1Statement(this.db, sql);
  }

  /** Every statement or none: D1 runs a batch as one transaction and rolls it back on the first error. */
  async batch(statements: NodeD1Statement[]) {
    this.db.exec("BEGIN");
    try {
      const results = statements.map((s) => s.execute());
      this.db.exec("COMMIT");
      return results;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async exec(sql: string) {
    this.db.exec(sql);
    return { count: sql.split(";").filter((s) => s.trim()).length, duration: 0 };
  }

  /** The migrations folder's SQL files in order, each split at drizzle-kit's statement breakpoints. */
  applyMigrations(dir = join(import.meta.dirname, "../../migrations")): NodeD1 {
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort())
      for (const stmt of readFileSync(join(dir, file), "utf8").split("--> statement-breakpoint"))
        if (stmt.trim()) this.db.exec(stmt);
    return this;
  }
}

/** A fresh in-memory D1 with the schema of every migration, typed as the binding the adapters take. */
export async function nodeD1(): Promise<D1Database> {
  return (await NodeD1.open()).applyMigrations() as unknown as D1Database;
}
