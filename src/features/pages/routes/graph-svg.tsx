// The run's work graph as an inline SVG (no script): items as boxes coloured by state, edges, the failing chain in red.
import { graphProgress } from "../../board";
import { type GraphLayout, layoutGraph } from "../graph-layout";

/** What the drawing reads of an item (the run view's `items`). */
type GraphItem = { item_id: string; state: string; depends_on: string[]; goal: string; skipped_by?: string };

const FILL: Record<string, string> = {
  waiting: "#eaeef2",
  ready: "#ddf4ff",
  leased: "#fff8c5",
  passed: "#dafbe1",
  dead_letter: "#ffebe9",
  skipped: "#f6f8fa",
  cancelled: "#f6f8fa",
};
const CHAIN = "#cf222e";
const MAX_LABEL = 24;
const label = (id: string) => (id.length <= MAX_LABEL ? id : `${id.slice(0, MAX_LABEL - 1)}…`);

function Edges(props: { g: GraphLayout; chain: Set<string> }) {
  return (
    <g fill="none" stroke-width="1.5">
      {props.g.edges.map((e) => {
        const mid = (e.x1 + e.x2) / 2;
        const red = props.chain.has(e.from) && props.chain.has(e.to);
        return (
          <path
            d={`M${e.x1} ${e.y1} C${mid} ${e.y1} ${mid} ${e.y2} ${e.x2} ${e.y2}`}
            stroke={red ? CHAIN : "currentColor"}
            stroke-opacity={red ? "1" : "0.35"}
            data-edge={`${e.from}>${e.to}`}
          />
        );
      })}
    </g>
  );
}

export function GraphSvg(props: { items: GraphItem[] }) {
  const { items } = props;
  if (items.length === 0) return null;
  const g = layoutGraph(items);
  const progress = graphProgress(items);
  const chain = new Set(progress.failing.flatMap((f) => [f.item_id, ...f.skipped]));
  const byId = new Map(items.map((i) => [i.item_id, i]));
  return (
    <div class="scroll">
      <svg
        viewBox={`0 0 ${g.width} ${g.height}`}
        width={g.width}
        height={g.height}
        role="img"
        aria-label={`work graph: ${progress.passed} of ${progress.total} items passed`}
        data-chart="graph"
        data-items={String(items.length)}
      >
        <title>{`work graph: ${progress.passed}/${progress.total} items passed`}</title>
        <Edges g={g} chain={chain} />
        {g.boxes.map((b) => {
          const item = byId.get(b.id) as GraphItem;
          const failing = chain.has(b.id);
          return (
            <g data-item={b.id} data-state={item.state} data-failing={failing ? "true" : undefined}>
              <rect
                x={b.x}
                y={b.y}
                width={b.w}
                height={b.h}
                rx="4"
                fill={FILL[item.state] ?? "#ffffff"}
                stroke={failing ? CHAIN : "currentColor"}
                stroke-opacity={failing ? "1" : "0.4"}
                stroke-width={failing ? "2" : "1"}
                stroke-dasharray={item.state === "skipped" || item.state === "cancelled" ? "4 3" : undefined}
              />
              <text x={b.x + 6} y={b.y + 19} font-size="11" fill="currentColor">
                {label(b.id)}
              </text>
              <title>{`${b.id}: ${item.state}${item.skipped_by ? ` (behind ${item.skipped_by})` : ""} — ${item.goal}`}</title>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
