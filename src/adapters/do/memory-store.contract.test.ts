// The MemoryStore contract against both memory homes: D1 (until a team is migrated) and the team object.
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { createD1MemoryTeamRegistry } from "../../features/memory/store/memory-team-registry";
import { createD1MemoryStore } from "../d1/memory-store";
import { memoryStoreContract } from "./memory-store.contract";
import { createTeamMemoryStore } from "./team-memory-store";

memoryStoreContract("D1", () => createD1MemoryStore(drizzle(env.DB)));
memoryStoreContract("team object", () =>
  createTeamMemoryStore(
    env.VECTOR_INDEX,
    createD1MemoryStore(drizzle(env.DB)),
    createD1MemoryTeamRegistry(drizzle(env.DB)),
  ),
);
