// Flag parsers and small helpers the CLI's command modules share: integers, lists, JSON arguments and files.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { InvalidArgumentError } from "commander";
import { CliExit, EXIT } from "./io.ts";

export const int = (v: string) => {
  if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError("not an integer");
  return Number(v);
};
export const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
export const jsonArg = (v: string) => {
  try {
    return JSON.parse(v);
  } catch {
    throw new InvalidArgumentError("not valid JSON");
  }
};
/** A JSON file named by a flag, relative to the run's working directory `cwd`. */
export function readJsonFile(path: string, cwd: string): unknown {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new CliExit(EXIT.usage, `no such file: ${path}`);
  try {
    return JSON.parse(readFileSync(full, "utf8"));
  } catch {
    throw new CliExit(EXIT.usage, `${path} is not valid JSON`);
  }
}
/** Drops undefined values, so flags that were not given are not sent. */
export const defined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
