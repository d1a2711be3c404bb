// Column builders every feature's D1 tables share (drizzle), so the same column reads the same in every table.
import { integer } from "drizzle-orm/sqlite-core";

/** the row's creation time, epoch milliseconds */
export const createdAt = () => integer("created_at").notNull();
