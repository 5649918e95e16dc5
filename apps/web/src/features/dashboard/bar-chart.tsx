import { Box } from "@mantine/core";

export type BarChartProps = {
  points: ReadonlyArray<{ date: string; value: number }>;
  label: string;
  format?: (value: number) => string;
  height?: number;
  color?: string;
};

const defaultFormat = (value: number) => value.toLocaleString();
/** Width of one day's slot in the drawing's units; the bar takes most of it, the rest is the gap. */
const SLOT = 10;
const BAR = 7;

/**
 * A small bar chart over time: one bar per point, scaled to the largest; each bar names its day and value
 * (shown on hover). Plain SVG: the charts library it replaces (@mantine/charts on recharts, 130 KB gzip)
 * was the largest download of the dashboard and a long task per chart (issue #23: Lighthouse).
 */
export function BarChart({
  points,
  label,
  format = defaultFormat,
  height = 64,
  color = "var(--mantine-color-blue-filled)",
}: BarChartProps) {
  const largest = points.reduce((max, point) => Math.max(max, point.value), 0);
  const width = Math.max(points.length, 1) * SLOT;
  return (
    <Box role="img" aria-label={label} h={height}>
      <svg
        width="100%"
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
        style={{ display: "block" }}
      >
        {points.map((point, index) => {
          // A day with any value shows at least a sliver of a bar; a day at zero shows none. Two nodes a
          // day (the bar and its title): the dashboard draws a chart per figure.
          if (!(point.value > 0 && largest > 0)) return null;
          const barHeight = Math.max((point.value / largest) * height, 1);
          return (
            <rect
              key={point.date}
              x={index * SLOT + (SLOT - BAR) / 2}
              y={height - barHeight}
              width={BAR}
              height={barHeight}
              rx={1}
              style={{ fill: color }}
            >
              <title>{`${point.date}: ${format(point.value)}`}</title>
            </rect>
          );
        })}
      </svg>
    </Box>
  );
}
