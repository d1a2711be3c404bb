// What the pages' sections share: a status pill, a loose value as text, and a titled table with its empty-state line.
import type { Child } from "hono/jsx";

const GOOD = new Set(["COMPLETE", "PASS", "approved", "auto_allowed", "timed_out", "completed"]);
const BAD = new Set(["DEAD_LETTER", "ERROR", "denied", "aborted", "STOPPED", "fallback_denied", "expired", "revoked"]);
const statusClass = (s: string) => (GOOD.has(s) ? "ok" : BAD.has(s) ? "bad" : "warn");

/** A status, outcome or lease end, coloured good / bad / in between. */
export const Pill = (props: { v: string }) => <span class={`pill ${statusClass(props.v)}`}>{props.v}</span>;

/** A loosely typed value as text ("" for null or missing). */
export const str = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));

/** A column header: its label, or its label with a class (`hide-sm` hides it on small screens). */
export type Column = string | { label: string; class: string };

/** A horizontally scrolling table: one header row, then a row per item. */
export function ScrollTable<T>(props: {
  id: string;
  columns: readonly Column[];
  rows: readonly T[];
  row: (item: T) => Child;
}) {
  return (
    <div class="scroll">
      <table id={props.id}>
        <thead>
          <tr>
            {props.columns.map((c) => (typeof c === "string" ? <th>{c}</th> : <th class={c.class}>{c.label}</th>))}
          </tr>
        </thead>
        <tbody>{props.rows.map((item) => props.row(item))}</tbody>
      </table>
    </div>
  );
}

/** A section that is a table: its heading, then the muted `empty` line when there are no rows, else the table. */
export function TableSection<T>(props: {
  heading: string;
  headingId?: string;
  empty: string;
  id: string;
  columns: readonly Column[];
  rows: readonly T[];
  row: (item: T) => Child;
}) {
  return (
    <>
      <h2 id={props.headingId}>{props.heading}</h2>
      {props.rows.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <ScrollTable id={props.id} columns={props.columns} rows={props.rows} row={props.row} />
      )}
    </>
  );
}
