// drizzle-kit: generates SQL migrations for D1 from the schema into migrations/.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/adapters/d1/schema.ts",
    "./src/adapters/d1/schema-memory-home.ts",
    "./src/adapters/d1/event-delivery-table.ts",
  ],
  out: "./migrations",
});
