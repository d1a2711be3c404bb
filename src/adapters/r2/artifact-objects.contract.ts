// The ArtifactObjects contract: one suite run against the R2 adapter in workerd and against the in-memory fake in Node.
import { describe, expect, it } from "vitest";
import type { ArtifactObjects } from "../../ports/artifact-objects";

const bytesOf = (text: string) => new TextEncoder().encode(text);

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** puts `text` under `key` with its own SHA-256, as an upload does */
async function putText(objects: ArtifactObjects, key: string, text: string, uploadedAt = 1_000) {
  const bytes = bytesOf(text);
  await objects.put(key, bytes, { contentType: "text/plain", sha256: await sha256Hex(bytes), uploadedAt });
}

async function textOf(objects: ArtifactObjects, key: string): Promise<{ text: string; size: number } | null> {
  const got = await objects.get(key);
  return got ? { text: await new Response(got.body).text(), size: got.size } : null;
}

/** every key under `prefix`, page by page, with the upload times the pages give */
async function listAll(objects: ArtifactObjects, prefix: string, limit: number) {
  const out: { key: string; uploadedAt: number }[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await objects.list(prefix, cursor, limit);
    expect(page.objects.length).toBeLessThanOrEqual(limit);
    out.push(...page.objects);
    cursor = page.cursor;
    if (cursor === undefined) return out;
  }
  throw new Error("more than 100 pages");
}

export function artifactObjectsContract(name: string, make: () => ArtifactObjects | Promise<ArtifactObjects>) {
  describe(`ArtifactObjects contract: ${name}`, () => {
    it("streams back the bytes put with their size, null for a key never put, the last bytes put under a key", async () => {
      const objects = await make();
      await putText(objects, "t/ac1/r/run_1/art_a", "héllo");
      expect(await textOf(objects, "t/ac1/r/run_1/art_a")).toEqual({ text: "héllo", size: 6 });
      expect(await objects.get("t/ac1/r/run_1/missing")).toBeNull();
      await putText(objects, "t/ac1/r/run_1/art_a", "again");
      expect(await textOf(objects, "t/ac1/r/run_1/art_a")).toEqual({ text: "again", size: 5 });
    });

    it("refuses bytes whose SHA-256 is not the one given, and stores nothing", async () => {
      const objects = await make();
      const meta = { contentType: "text/plain", sha256: await sha256Hex(bytesOf("other")), uploadedAt: 1 };
      await expect(objects.put("t/ac2/r/run_1/art_bad", bytesOf("bytes"), meta)).rejects.toThrow();
      expect(await objects.get("t/ac2/r/run_1/art_bad")).toBeNull();
    });

    it("deletes the keys given (a missing one is no error) and keeps the others", async () => {
      const objects = await make();
      for (const k of ["a", "b", "c"]) await putText(objects, `t/ac3/${k}`, k);
      await objects.delete(["t/ac3/a", "t/ac3/c", "t/ac3/never"]);
      expect(await objects.get("t/ac3/a")).toBeNull();
      expect(await textOf(objects, "t/ac3/b")).toEqual({ text: "b", size: 1 });
      expect((await listAll(objects, "t/ac3/", 10)).map((o) => o.key)).toEqual(["t/ac3/b"]);
    });

    it("lists a prefix's keys ascending with their upload times, page by page, none of another prefix", async () => {
      const objects = await make();
      const keys = ["t/ac4/e", "t/ac4/a", "t/ac4/d", "t/ac4/b", "t/ac4/c"];
      for (const [i, k] of keys.entries()) await putText(objects, k, k, 5_000 + i);
      await putText(objects, "t/ac40/a", "x");
      await putText(objects, "t/ac5/a", "x");
      const listed = await listAll(objects, "t/ac4/", 2);
      expect(listed).toEqual([...keys].sort().map((key) => ({ key, uploadedAt: 5_000 + keys.indexOf(key) })));
      expect(await objects.list("t/ac9/", undefined, 10)).toEqual({ objects: [], cursor: undefined });
    });
  });
}
