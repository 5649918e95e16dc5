// Mantine's chart styles, imported as main.tsx imports the other Mantine packages' styles but here, so
// that they come with the chart's lazy chunk instead of the shell's CSS (16 KB, 2.7 KB gzip).
import "@mantine/charts/styles.css";
import { BarChart as MantineBarChart } from "@mantine/charts";
import { Box } from "@mantine/core";

export type BarChartProps = {
  points: ReadonlyArray<{ date: string; value: number }>;
  label: string;
  format?: (value: number) => string;
  height?: number;
  color?: string;
};

const defaultFormat = (value: number) => value.toLocaleString();
/** A day with any value shows at least a sliver of a bar; a day at zero shows none. */
const nonZeroVisible = (value: number | undefined | null) => ((value ?? 0) > 0 ? 1 : 0);

/** The chart itself (loaded lazily through `bar-chart.tsx`): bars only, the value of a day on hover. */
export function BarChartView({
  points,
  label,
  format = defaultFormat,
  height = 64,
  color = "var(--mantine-color-blue-filled)",
}: BarChartProps) {
  return (
    <Box role="img" aria-label={label}>
      <MantineBarChart
        h={height}
        data={points as Array<{ date: string; value: number }>}
        dataKey="date"
        series={[{ name: "value", label, color }]}
        withXAxis={false}
        withYAxis={false}
        gridAxis="none"
        tickLine="none"
        barProps={{ minPointSize: nonZeroVisible }}
        valueFormatter={format}
        tooltipAnimationDuration={0}
      />
    </Box>
  );
}
