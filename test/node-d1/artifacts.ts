// Artifact tests in Node: objects put straight into the artifacts bucket's stand-in (as an upload would), and what a
// team holds read back through the port (object keys) and the artifacts feature's drizzle table (rows), not raw SQL.
import { eq } from "drizzle-orm";
import type { Deps } from "../../src/deps";
import { artifacts } from "../../src/features/artifacts/store/tables";
import { sha256Hex } from "../../src/features/artifacts/upload";
import { tableRows } from "./table-rows";

type Warden = { db: D1Database; drainAll: () => Promise<void>; deps: Pick<Deps, "artifactObjects"> };

/** SELF.fetch over a nodeWarden: a Request through the app, its Response once the request's waitUntil work has ended */
export function responseFetch(w: {
  fetchRaw: (request: Request) => Promise<{ response: Response; background: Promise<void> }>;
}) {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const { response, background } = await w.fetchRaw(new Request(input, init));
    await background;
    return response;
  }) as typeof globalThis.fetch;
}

export function nodeArtifactTools(w: Warden) {
  const recordRows = tableRows(w);
  return {
    /** the bytes of `text` under `key`, uploaded at `uploadedAt` (env.ARTIFACTS.put with uploaded_at in workerd) */
    async putObject(key: string, text: string, uploadedAt: number) {
      const bytes = new TextEncoder().encode(text);
      await w.deps.artifactObjects.put(key, bytes, {
        contentType: "text/plain",
        sha256: await sha256Hex(bytes),
        uploadedAt,
      });
    },
    /** the object's bytes as text, null when there is none (env.ARTIFACTS.get(key)?.text() in workerd) */
    async objectText(key: string): Promise<string | null> {
      const object = await w.deps.artifactObjects.get(key);
      return object ? new Response(object.body).text() : null;
    },
    /** every object key under the team's prefix, ascending (env.ARTIFACTS.list in workerd) */
    async objectKeys(teamId: string): Promise<string[]> {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await w.deps.artifactObjects.list(`t/${teamId}/`, cursor, 1000);
        keys.push(...page.objects.map((o) => o.key));
        cursor = page.cursor;
      } while (cursor !== undefined);
      return keys;
    },
    /** the team's artifact rows (id, uri), by artifact id */
    async artifactRows(teamId: string): Promise<{ artifact_id: string; uri: string }[]> {
      const rows = await recordRows(artifacts, eq(artifacts.teamId, teamId), {
        artifact_id: artifacts.artifactId,
        uri: artifacts.uri,
      });
      return (rows as { artifact_id: string; uri: string }[]).sort((a, b) =>
        a.artifact_id.localeCompare(b.artifact_id),
      );
    },
  };
}
