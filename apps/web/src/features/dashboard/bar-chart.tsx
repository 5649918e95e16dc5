import { Box } from "@mantine/core";
import { lazy, Suspense } from "react";
import type { BarChartProps } from "./bar-chart-view.tsx";

// @mantine/charts pulls in recharts (d3, redux): its own chunk, fetched when the first chart renders, so
// neither the shell nor the dashboard's figures wait for it.
const BarChartView = lazy(async () => ({ default: (await import("./bar-chart-view.tsx")).BarChartView }));

/** A small bar chart over time: one bar per point, scaled to the largest; each bar names its value. */
export function BarChart(props: BarChartProps) {
  const height = props.height ?? 64;
  return (
    <Suspense fallback={<Box role="img" aria-label={props.label} h={height} />}>
      <BarChartView {...props} />
    </Suspense>
  );
}
