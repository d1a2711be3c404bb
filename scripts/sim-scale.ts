// npm run sim:scale: prints, for a grid of fleets, the load on each Cloudflare limit and which breaks first — in the
// layout built (issue 27: decision log on R2, memory rows per team object) — then the first wall of each layout and
// where each limit breaks.
import { exactBreakingPoint, type Fleet, firstToBreak, LAYOUTS, type Layout, project } from "./sim-scale-core";

const fleets: Fleet[] = [];
for (const decisionsPerAgentPerSecond of [0.01, 0.2])
  for (const teams of [1, 10, 100, 1000, 10_000])
    for (const agentsPerTeam of [10, 100])
      for (const memoriesPerTeam of [10_000, 100_000, 1_000_000, 5_000_000])
        fleets.push({ teams, agentsPerTeam, decisionsPerAgentPerSecond, memoriesPerTeam });

console.log(
  "limits and assumptions: scripts/sim-scale-core.ts, docs/scaling.md; layout do (decision log on R2, memory rows per team object)",
);
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

// The issue's fleet: 100 teams × 100 agents at 0.01 decisions/s per agent, 10k memories per team; grown by teams.
const issueFleet: Fleet = { teams: 100, agentsPerTeam: 100, decisionsPerAgentPerSecond: 0.01, memoriesPerTeam: 10_000 };
const perTeam = issueFleet.agentsPerTeam * issueFleet.decisionsPerAgentPerSecond;
console.log("\nfirst wall, 100 teams × 100 agents × 0.01 decisions/s (10k memories/team), grown by teams:");
console.log("layout | at 100 teams: first to break (utilisation) | limit | breaks at teams | decisions/s then");
console.log("-------|--------------------------------------------|-------|-----------------|-----------------");
const firstWall: Record<Layout, number> = {
  d1: Number.POSITIVE_INFINITY,
  r2: Number.POSITIVE_INFINITY,
  do: Number.POSITIVE_INFINITY,
};
for (const layout of LAYOUTS) {
  const worst = firstToBreak(project(issueFleet, layout));
  for (const l of project(issueFleet, layout)) {
    const teams = exactBreakingPoint(issueFleet, "teams", l.limit, 10_000_000, layout);
    if (teams !== undefined) firstWall[layout] = Math.min(firstWall[layout], teams * perTeam);
    console.log(
      `${layout} | ${worst.limit} (${worst.utilisation.toFixed(2)}) | ${l.limit} | ${teams ?? "> 10M"} | ${teams === undefined ? "—" : teams * perTeam}`,
    );
  }
}
console.log(
  `\nfirst wall: ${firstWall.d1} decisions/s (d1) → ${firstWall.r2} (r2: ${(firstWall.r2 / firstWall.d1).toFixed(0)}×) → ${firstWall.do} (do: ${(firstWall.do / firstWall.d1).toFixed(0)}×)`,
);
for (const layout of ["r2", "do"] as const) {
  const wallFleet = { ...issueFleet, teams: firstWall[layout] / perTeam };
  const wall = firstToBreak(project(wallFleet, layout));
  console.log(`${layout} layout at its first wall (${wallFleet.teams} teams): ${wall.limit}: ${wall.detail}`);
}
