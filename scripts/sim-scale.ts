// npm run sim:scale: prints, for a grid of fleets, the load on each Cloudflare limit and which breaks first.
import { type Fleet, firstToBreak, project } from "./sim-scale-core";

const fleets: Fleet[] = [];
for (const decisionsPerAgentPerSecond of [0.01, 0.2])
  for (const teams of [1, 10, 100, 1000, 10_000])
    for (const agentsPerTeam of [10, 100])
      for (const memoriesPerTeam of [10_000, 100_000, 1_000_000, 5_000_000])
        fleets.push({ teams, agentsPerTeam, decisionsPerAgentPerSecond, memoriesPerTeam });

console.log("limits and assumptions: scripts/sim-scale-core.ts, docs/scaling.md");
console.log("teams | agents/team | decisions/s | memories/team | first to break (utilisation) | Warden then");
console.log("------|-------------|-------------|---------------|------------------------------|------------");
for (const f of fleets) {
  const loads = project(f);
  const worst = firstToBreak(loads);
  const broken = loads.filter((l) => l.utilisation >= 1).length;
  const total = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  const verdict = worst.utilisation >= 1 ? "BREAKS" : "ok";
  console.log(
    `${f.teams} | ${f.agentsPerTeam} | ${total} | ${f.memoriesPerTeam} | ${worst.limit} (${worst.utilisation.toFixed(2)}, ${verdict}; ${broken} of ${loads.length} over) | ${worst.utilisation >= 1 ? worst.action : "—"}`,
  );
}
