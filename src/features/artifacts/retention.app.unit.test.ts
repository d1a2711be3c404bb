// The artifact retention sweep against local D1 and R2: expired artifacts leave row and object together; a sweep cut
// off between the two leaves no row without its object, and the next sweep removes the orphan objects; a team's shorter
// retention (artifact_retention) deletes that team's older artifacts of the kind, and only them. In Node: D1's
// stand-in and the artifacts bucket's (test/fakes/node-stand-ins.ts, held to the R2 adapter's contract).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeArtifactTools } from "../../../test/node-d1/artifacts";
import type { ArtifactObjects } from "../../ports/artifact-objects";
import type { ArtifactKind } from "./domain";
import { artifactKey, DAY_MS, DEFAULT_RETENTION_DAYS, expiresAt } from "./domain";
import { ORPHAN_GRACE_MS, sweepArtifacts } from "./retention";
import type { ArtifactRow } from "./store/artifact-store-port";

const h = await nodeHelpers();
const { artifactRows, objectKeys, putObject } = nodeArtifactTools(h);
const deps = () => h.depsWith();

async function stored(
  teamId: string,
  id: string,
  expiresAt: number,
  uploadedAt: number,
  kind: ArtifactKind = "log",
): Promise<ArtifactRow> {
  const row: ArtifactRow = {
    artifactId: id,
    teamId,
    runId: "run_ret",
    opId: null,
    kind,
    key: artifactKey(teamId, "run_ret", id),
    contentType: "text/plain",
    sizeBytes: 5,
    sha256: "0".repeat(64),
    status: "released",
    gateId: null,
    createdBy: "test",
    createdAt: uploadedAt,
    expiresAt,
  };
  await putObject(row.key, "bytes", uploadedAt);
  expect(await deps().artifactStore.insertWithinQuota(row, Number.MAX_SAFE_INTEGER)).toBe(true);
  return row;
}

/** Every row of the team with whether its object exists, and every object key under the team's prefix. */
async function inventory(teamId: string) {
  const rows = await artifactRows(teamId);
  const objects = (await objectKeys(teamId)).sort();
  const rowsWithObject = rows.map((r) => ({
    id: r.artifact_id,
    object: objects.includes(r.uri.replace("r2://artifacts/", "")),
  }));
  return { rows: rowsWithObject, objects };
}

describe("sweepArtifacts", () => {
  it("deletes expired artifacts (row and object) in batches and keeps the live ones", async () => {
    const now = Date.now();
    const old = now - 2 * ORPHAN_GRACE_MS;
    for (let i = 0; i < 5; i++) await stored("ret-a", `art_old${i}`, now - DAY_MS, old);
    const live = await stored("ret-a", "art_live", now + DAY_MS, old);
    const report = await sweepArtifacts(deps(), now, 2);
    expect(report.expired).toBe(5);
    expect(await inventory("ret-a")).toEqual({ rows: [{ id: "art_live", object: true }], objects: [live.key] });
  });

  it("leaves no row without its object when cut off after the rows, and the next sweep removes the orphans", async () => {
    const now = Date.now();
    const old = now - 2 * ORPHAN_GRACE_MS;
    const expired = [await stored("ret-b", "art_x1", now - 1, old), await stored("ret-b", "art_x2", now - 1, old)];
    const live = await stored("ret-b", "art_keep", now + DAY_MS, old);
    const real = deps().artifactObjects;
    const dying: ArtifactObjects = {
      ...real,
      delete: async () => {
        throw new Error("worker died before deleting the objects");
      },
    };
    await expect(sweepArtifacts({ artifactStore: deps().artifactStore, artifactObjects: dying }, now)).rejects.toThrow(
      /died/,
    );
    const cut = await inventory("ret-b");
    // every row that is left has its object; the expired rows are gone and their objects are orphans now
    expect(cut.rows).toEqual([{ id: "art_keep", object: true }]);
    expect(cut.objects).toEqual([...expired.map((r) => r.key), live.key].sort());

    const next = await sweepArtifacts(deps(), now);
    expect(next.orphans).toBeGreaterThanOrEqual(2);
    expect(await inventory("ret-b")).toEqual({ rows: [{ id: "art_keep", object: true }], objects: [live.key] });
  });

  it("keeps an object without a row while it is younger than the grace period (an upload on its way)", async () => {
    const now = Date.now();
    const key = artifactKey("ret-c", "run_ret", "art_inflight");
    await putObject(key, "bytes", now - ORPHAN_GRACE_MS + 60_000);
    const stale = artifactKey("ret-c", "run_ret", "art_stale");
    await putObject(stale, "bytes", now - ORPHAN_GRACE_MS - 1);
    await sweepArtifacts(deps(), now);
    expect((await inventory("ret-c")).objects).toEqual([key]);
  });

  it("deletes, with a team's shorter setting, exactly that team's older artifacts of the kind (row and object)", async () => {
    const now = Date.now();
    const defaults = (kind: ArtifactKind, createdAt: number) => expiresAt(kind, createdAt, DEFAULT_RETENTION_DAYS);
    const tenDaysAgo = now - 10 * DAY_MS;
    const threeDaysAgo = now - 3 * DAY_MS;
    const audit = { actor: "admin", action: "artifact_retention.updated", subjectType: "artifact_retention" };
    await deps().artifactStore.putRetention(
      "ret-d",
      { log: 7 },
      {
        ...audit,
        id: "aud_ret_d",
        teamId: "ret-d",
        subjectId: "ret-d",
        metadata: { days: { log: 7 } },
        createdAt: now,
      },
    );
    // uploaded before the setting: their expires_at is still the default's 30 days
    await stored("ret-d", "art_d_old_log", defaults("log", tenDaysAgo), tenDaysAgo);
    const youngLog = await stored("ret-d", "art_d_young_log", defaults("log", threeDaysAgo), threeDaysAgo);
    const oldJson = await stored("ret-d", "art_d_old_json", defaults("json", tenDaysAgo), tenDaysAgo, "json");
    const otherTeam = await stored("ret-e", "art_e_old_log", defaults("log", tenDaysAgo), tenDaysAgo);

    await sweepArtifacts(deps(), now);
    expect(await inventory("ret-d")).toEqual({
      rows: [
        { id: "art_d_old_json", object: true },
        { id: "art_d_young_log", object: true },
      ],
      objects: [oldJson.key, youngLog.key].sort(),
    });
    expect(await inventory("ret-e")).toEqual({
      rows: [{ id: "art_e_old_log", object: true }],
      objects: [otherTeam.key],
    });
  });
});
