// The MCP feature's public entry: the /mcp route, its needs, and the tool table (read by the drift test and the bench).
import { defineFeature } from "../feature";
import { mcpRoutes } from "./routes";

export type { McpNeeds } from "./needs";
export { MCP_PATH, mcpRoutes } from "./routes";
export { listTools } from "./server";
export { TOOLS, type Tool } from "./tools";

export const mcpFeature = defineFeature({ name: "mcp", routes: [mcpRoutes] });
