// Memory write use-cases: one guarded write, many at once (all or nothing), rigid import; each returns a Result.

import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import { type Defer, invalid, type MemoryServiceDeps, resolveNamespace, stopwatch, type Timing } from "./core";
import { commit } from "./group-commit";
import { scanFields } from "./guard/guard";
import type { Caller, ParsedNamespace } from "./namespaces";
import { guardFields, type WriteInput } from "./write-checks";
import { refuse, sizeOf, type WriteContext, type WriteOutcome, writeContext } from "./write-context";
import { importRigid, writeMany } from "./write-many";

export type { WriteInput } from "./write-checks";
export type { WriteOutcome } from "./write-context";
export type { RigidImport } from "./write-many";

/** how a write is reported: `announce: false` when the caller reports refusals itself (the learning consumer) */
export type WriteOptions = { timing?: Timing; announce?: boolean };

/** The guard and size checks of one write: the refusal as an error, or null when the write may go on. */
async function checkOne(
  ctx: WriteContext,
  caller: Caller,
  w: WriteInput,
  ns: ParsedNamespace,
  now: number,
  defer: Defer,
  announce: boolean,
) {
  // sizes first: the guard never scans text that will be refused anyway (its cost grows with the text)
  const size = sizeOf(ctx, w);
  if (size.length)
    return refuse(ctx, caller, now, defer, "memory.write", "rejected", size, { class: w.class, announce });
  const verdict = await scanFields(guardFields(w));
  const scope = verdict.ok || !verdict.paths.includes("namespace") ? ns.scope : undefined;
  if (!verdict.ok) {
    return refuse(ctx, caller, now, defer, "memory.write", verdict.code, verdict.ruleIds, {
      scope,
      class: w.class,
      announce,
    });
  }
  return null;
}

/** One guarded write: namespace, sizes, guard, `supersedes` checked, then committed in its own request. */
async function write(
  ctx: WriteContext,
  caller: Caller,
  w: WriteInput,
  now: number,
  defer: Defer,
  opts: WriteOptions = {},
): Promise<Result<WriteOutcome, AppError>> {
  const mark = stopwatch(opts.timing);
  const ns = resolveNamespace(caller, w.namespace, "write", "namespace");
  if (!ns.ok) return ns;
  const refused = await checkOne(ctx, caller, w, ns.value, now, defer, opts.announce ?? true);
  mark("guard");
  if (refused) return err(refused);

  let supersedes: string | null = null;
  if (w.supersedes) {
    const [old] = await ctx.d.store.getDocs(caller.teamId, [w.supersedes]);
    if (!old || old.namespace !== w.namespace)
      return err(invalid("supersedes", "supersedes must name a memory in the same namespace"));
    supersedes = old.id;
  }

  const committed = commit(ctx, { caller, w, ns: ns.value, now, supersedes, mark }, defer);
  return ok(await committed);
}

/** a use-case's arguments after its context */
type AfterContext<T extends unknown[]> = T extends [WriteContext, ...infer R] ? R : never;

/** The write use-cases over one context (one set of commit turns per memory service). */
export function createMemoryWrites(d: MemoryServiceDeps) {
  const ctx = writeContext(d);
  return {
    write: (...a: AfterContext<Parameters<typeof write>>) => write(ctx, ...a),
    writeMany: (...a: AfterContext<Parameters<typeof writeMany>>) => writeMany(ctx, ...a),
    importRigid: (...a: AfterContext<Parameters<typeof importRigid>>) => importRigid(ctx, ...a),
  };
}
