// Tests' view of a team object's memory rows in workerd (VECTOR_INDEX, idFromName(team_id)): test/memory-tools.ts's.
export { d1MemoryRowCount, teamMemoryCount, teamMemoryRows } from "./memory-harness";
