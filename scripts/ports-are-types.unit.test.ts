// The ports check: a port file may export types and interfaces only; every kind of runtime export is flagged.
import { describe, expect, it } from "vitest";
import { portValues } from "./ports-are-types.mjs";

describe("portValues", () => {
  it("accepts types, interfaces, type-only re-exports and imports", () => {
    const text = [
      'import type { A } from "../lib/a";',
      'import { B } from "../lib/b";',
      "export type { A };",
      'export type * from "../lib/c";',
      'export { type D } from "../lib/d";',
      "export type Row = { id: string };",
      "export interface Store { get(id: string): Promise<Row | null> }",
      "declare const hidden: number;",
      "const local = 1;",
    ].join("\n");
    expect(portValues(text)).toEqual([]);
  });

  it("flags every exported value: const, function, class, enum, default, value re-exports", () => {
    const text = [
      "export const MAX = 100;",
      "export function cosine() { return 0; }",
      "export class Unavailable extends Error {}",
      "export enum Kind { A }",
      "export default 1;",
      'export { refused } from "../lib/rate-limit";',
      'export * from "../lib/vectors";',
      "export type Ok = string;",
    ].join("\n");
    expect(portValues(text).map((v) => [v.line, v.what])).toEqual([
      [1, "const MAX"],
      [2, "function cosine"],
      [3, "class Unavailable"],
      [4, "enum Kind"],
      [5, "export default"],
      [6, "re-export refused (use `export type`)"],
      [7, "re-export * (use `export type`)"],
    ]);
  });
});
