// drizzle-kit: generates SQL migrations for D1 from every feature's tables (src/features/*/store/tables.ts) into migrations/.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/features/*/store/tables.ts",
  out: "./migrations",
});
