// The memory-migration feature's public entry: the copy of an existing deployment's D1 memory rows into team objects.
import type { AppError } from "../../errors";
import type { Result } from "../../lib/result";
import type { Clock } from "../../ports/clock";
import type { MemoryMigrationSource, MemoryMigrationTarget } from "../../ports/memory-migration";
import { defineFeature } from "../feature";
import { type MigrateProgress, migrateNextPage } from "./migrate";
import { memoryMigrationRoutes } from "./routes";

export { type MigrateProgress, migrateNextPage } from "./migrate";
export { memoryMigrationRoutes };

type MigrationParts = {
  memoryMigrationSource: MemoryMigrationSource;
  memoryMigrationTarget: MemoryMigrationTarget;
  clock: Clock;
};

/** the copy job of one team: `next` copies one page, or verifies and switches at the end */
export type MemoryMigration = { next(teamId: string, batch: number): Promise<Result<MigrateProgress, AppError>> };

/** What the route needs: the copy job. */
export type MemoryMigrationNeeds = { memoryMigration: MemoryMigration };

/** the copy job for one team at a time: `next` copies one page, or verifies and switches at the end */
export const memoryMigrationFeature = defineFeature({
  name: "memory-migration",
  routes: [memoryMigrationRoutes],
  build: {
    memoryMigration: (d: MigrationParts): MemoryMigration => ({
      next: (teamId: string, batch: number) =>
        migrateNextPage(
          { source: d.memoryMigrationSource, target: d.memoryMigrationTarget, now: () => d.clock.now() },
          teamId,
          batch,
        ),
    }),
  },
});
