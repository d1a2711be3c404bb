// Many memory writes at once (imports, seeding: all guarded first, all or nothing) and the rigid import over them.

import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { MemDoc } from "../../ports/memory-store";
import { contentHash } from "./content";
import { type Defer, resolveAll, resolveNamespace, syncCards } from "./core";
import { scanFields } from "./guard/guard";
import type { Caller, ParsedNamespace } from "./namespaces";
import { guardFields, newDoc, type WriteInput } from "./write-checks";
import { persist, refuse, sizeOf, type WriteContext, type WriteOutcome } from "./write-context";

export type RigidImport = {
  namespace: string;
  kind: "charter" | "allowlist";
  entries: { text: string; tags?: string[]; metadata?: Record<string, unknown> }[];
  replace?: boolean;
};

type ItemRefusal = { i: number; code: "redaction_required" | "pii_detected"; ruleIds: string[] };

const unionOfRules = (rs: { ruleIds: string[] }[]) => [...new Set(rs.flatMap((r) => r.ruleIds))].sort();

/** The guard's hits grouped by item (paths `items.<i>.…`): each refused item with its code and rule ids. */
async function guardItems(items: WriteInput[]): Promise<ItemRefusal[]> {
  const refused: ItemRefusal[] = [];
  const verdict = await scanFields(items.flatMap((w, i) => guardFields(w, `items.${i}.`)));
  if (verdict.ok) return refused;
  const perItem = new Map<number, typeof verdict.hits>();
  for (const hit of verdict.hits) {
    const i = Number(/^items\.(\d+)\./.exec(hit.path)?.[1] ?? -1);
    perItem.set(i, [...(perItem.get(i) ?? []), hit]);
  }
  for (const [i, hits] of perItem) {
    const ids = new Set(hits.map((h) => h.ruleId));
    for (const h of hits) if (h.via !== "raw") ids.add(`evasion.${h.via}`);
    const code = hits.some((h) => h.family !== "pii") ? "redaction_required" : "pii_detected";
    refused.push({ i, code, ruleIds: [...ids].sort() });
  }
  return refused;
}

/** Guards every item in one pass (one secretlint run per variant kind) and sizes each: the refusal, or null. */
async function checkMany(
  ctx: WriteContext,
  caller: Caller,
  items: WriteInput[],
  now: number,
  defer: Defer,
  source: string,
) {
  // sizes first: the guard never scans text that will be refused anyway (its cost grows with the text)
  const sized = items.flatMap((w, i) => {
    const ruleIds = sizeOf(ctx, w);
    return ruleIds.length ? [{ i, ruleIds }] : [];
  });
  if (sized.length) {
    return refuse(ctx, caller, now, defer, source, "rejected", unionOfRules(sized), { items: sized.map((r) => r.i) });
  }
  const refused = await guardItems(items);
  if (refused.length) {
    const code = refused.some((r) => r.code === "redaction_required") ? "redaction_required" : "pii_detected";
    return refuse(ctx, caller, now, defer, source, code, unionOfRules(refused), { items: refused.map((r) => r.i) });
  }
  return null;
}

/** Many writes at once (imports, seeding): all guarded first, all-or-nothing; duplicates only by exact content. */
export async function writeMany(
  ctx: WriteContext,
  caller: Caller,
  items: WriteInput[],
  now: number,
  defer: Defer,
  source = "memory.bulk",
): Promise<Result<WriteOutcome[], AppError>> {
  const { d } = ctx;
  const parsed = resolveAll(
    caller,
    items.map((w) => w.namespace),
    "write",
    (i) => `items.${i}.namespace`,
  );
  if (!parsed.ok) return parsed;
  const refused = await checkMany(ctx, caller, items, now, defer, source);
  if (refused) return err(refused);
  const hashes = await Promise.all(items.map((w) => contentHash(w.namespace, w.class, w.text)));
  const results: WriteOutcome[] = new Array(items.length);
  const fresh: number[] = [];
  const seen = new Map<string, number>();
  const existing = await d.store.findByContentHashes(caller.teamId, [...new Set(hashes)]);
  for (let i = 0; i < items.length; i++) {
    const h = hashes[i] as string;
    if (seen.has(h)) continue;
    seen.set(h, i);
    const same = existing.get(h);
    if (same) {
      await d.store.reinforce(caller.teamId, same.id, now);
      results[i] = { id: same.id, tier: same.tier, status: "reinforced" };
    } else fresh.push(i);
  }
  await syncCards(
    d,
    caller.teamId,
    results.filter((r) => r?.status === "reinforced").map((r) => r.id),
  );
  const vectors = await d.embedder.embed(fresh.map((i) => (items[i] as WriteInput).text));
  const docs = fresh.map((i, k) => ({
    doc: newDoc(d.newId("mem"), caller, items[i] as WriteInput, now, hashes[i] as string, null),
    ns: parsed.value[i] as ParsedNamespace,
    vector: vectors[k] as Float32Array,
  }));
  if (docs.length) await persist(ctx, caller.teamId, docs);
  fresh.forEach((i, k) => {
    results[i] = { id: (docs[k] as { doc: MemDoc }).doc.id, tier: "hot", status: "created" };
  });
  for (let i = 0; i < items.length; i++) {
    if (!results[i]) {
      const first = results[seen.get(hashes[i] as string) as number] as WriteOutcome;
      results[i] = { id: first.id, tier: first.tier, status: "reinforced" };
    }
  }
  return ok(results);
}

/** Rigid memory (charter, allowlist): import-only, pinned, never derived from episodes. */
export async function importRigid(
  ctx: WriteContext,
  caller: Caller,
  body: RigidImport,
  now: number,
  defer: Defer,
): Promise<Result<{ imported: number; ids: string[]; archived: string[] }, AppError>> {
  const items: WriteInput[] = body.entries.map((e) => ({
    namespace: body.namespace,
    class: "rigid",
    text: e.text,
    tags: e.tags,
    metadata: { ...(e.metadata ?? {}), rigid_kind: body.kind },
    pinned: true,
  }));
  const ns = resolveNamespace(caller, body.namespace, "write", "namespace");
  if (!ns.ok) return ns;
  let archived: string[] = [];
  if (body.replace) {
    // sizes and guard before archiving anything: a refused import changes nothing
    for (let i = 0; i < items.length; i++) {
      const size = sizeOf(ctx, items[i] as WriteInput);
      if (size.length) return err(refuse(ctx, caller, now, defer, "memory.import", "rejected", size, { items: [i] }));
      const v = await scanFields(guardFields(items[i] as WriteInput, `entries.${i}.`));
      if (!v.ok) return err(refuse(ctx, caller, now, defer, "memory.import", v.code, v.ruleIds, { items: [i] }));
    }
    archived = await ctx.d.store.archiveRigid(caller.teamId, body.namespace, body.kind, now);
    await ctx.d.index.delete(caller.teamId, archived);
  }
  const results = await writeMany(ctx, caller, items, now, defer, "memory.import");
  if (!results.ok) return results;
  return ok({ imported: results.value.length, ids: results.value.map((r) => r.id), archived });
}
