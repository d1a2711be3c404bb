// Inline SVG charts of the pages: tokens and latency per step, and the overview's 7-day sparklines (no script).
import { sparkBars, sparkPoints, type TraceStep } from "../model";

const W = 640;
const H = 160;
const PAD = 24;

/** One bar per step, its height the step's tokens (in + out) against the largest step's. */
function StepBars(props: { steps: TraceStep[]; maxTokens: number; slot: number; barW: number; plotH: number }) {
  const { slot, barW, plotH } = props;
  return (
    <>
      {props.steps.map((s, i) => {
        const h = ((s.tokens_in + s.tokens_out) / props.maxTokens) * plotH;
        const x = PAD + i * slot + (slot - barW) / 2;
        return (
          <rect
            x={x.toFixed(1)}
            y={(H - PAD - h).toFixed(1)}
            width={barW.toFixed(1)}
            height={h.toFixed(1)}
            fill="#0969da"
            fill-opacity="0.55"
          >
            <title>{`step ${i + 1}: ${s.tokens_in + s.tokens_out} tokens, ${s.latency_ms ?? "?"} ms`}</title>
          </rect>
        );
      })}
    </>
  );
}

/** Bars of tokens (in + out) and a line of latency per step, each scaled to its own maximum. */
export function StepChart(props: { steps: TraceStep[] }) {
  const { steps } = props;
  if (steps.length === 0) return <p class="muted">No steps yet.</p>;
  const maxTokens = Math.max(1, ...steps.map((s) => s.tokens_in + s.tokens_out));
  const latencies = steps.map((s) => s.latency_ms);
  const maxLatency = Math.max(1, ...latencies.filter((v): v is number => v !== null));
  const slot = (W - 2 * PAD) / steps.length;
  const barW = Math.max(2, slot * 0.6);
  const plotH = H - 2 * PAD;
  const line = sparkPoints(latencies, W - 2 * PAD - slot, plotH);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      role="img"
      aria-label="tokens and latency per step"
      data-chart="steps"
    >
      <title>tokens (bars) and latency (line) per step</title>
      <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} stroke="currentColor" stroke-opacity="0.3" />
      <StepBars steps={steps} maxTokens={maxTokens} slot={slot} barW={barW} plotH={plotH} />
      {line ? (
        <polyline
          points={line}
          transform={`translate(${(PAD + slot / 2).toFixed(1)} ${PAD})`}
          fill="none"
          stroke="#cf222e"
          stroke-width="2"
        />
      ) : null}
      <text x={PAD} y={14} font-size="11" fill="currentColor">{`tokens max ${maxTokens}`}</text>
      <text
        x={W - PAD}
        y={14}
        font-size="11"
        fill="#cf222e"
        text-anchor="end"
      >{`latency max ${Math.round(maxLatency)} ms`}</text>
    </svg>
  );
}

/** A small bar chart of a 7-day series, oldest day first; days without data are faint ticks on the baseline. */
export function Sparkline(props: { values: (number | null)[]; label: string; format?: (v: number) => string }) {
  const w = 140;
  const h = 32;
  const bars = sparkBars(props.values, w - 4, h - 4);
  const show = props.format ?? String;
  const days = props.values.length;
  return (
    <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={props.label} data-chart="sparkline">
      <title>{props.label}</title>
      <g transform="translate(2 2)">
        {bars.map((b, i) => {
          const v = props.values[i];
          const day = i === days - 1 ? "today" : `${days - 1 - i}d ago`;
          return (
            <rect
              x={b.x.toFixed(1)}
              y={b.y.toFixed(1)}
              width={b.width.toFixed(1)}
              height={b.height.toFixed(1)}
              fill="currentColor"
              fill-opacity={b.empty ? "0.2" : "0.7"}
              data-day={String(i)}
            >
              <title>{`${day}: ${v === null || v === undefined ? "no data" : show(v)}`}</title>
            </rect>
          );
        })}
      </g>
    </svg>
  );
}
