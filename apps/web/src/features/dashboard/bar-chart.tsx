/** A small bar chart over time: one bar per point, scaled to the largest; each bar names its value. */
export function BarChart({
  points,
  label,
  format = (value) => value.toLocaleString(),
  height = 64,
  color = "var(--mantine-color-blue-filled)",
}: {
  points: ReadonlyArray<{ date: string; value: number }>;
  label: string;
  format?: (value: number) => string;
  height?: number;
  color?: string;
}) {
  const max = Math.max(0, ...points.map((point) => point.value));
  const width = Math.max(1, points.length);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width * 10} ${height}`}
      preserveAspectRatio="none"
      width="100%"
      height={height}
    >
      <line x1={0} x2={width * 10} y1={height - 0.5} y2={height - 0.5} stroke="var(--mantine-color-gray-4)" />
      {points.map((point, index) => {
        const barHeight = max > 0 ? Math.max(point.value > 0 ? 1 : 0, (point.value / max) * (height - 4)) : 0;
        return (
          <rect
            key={point.date}
            x={index * 10 + 1}
            y={height - barHeight}
            width={8}
            height={barHeight}
            fill={color}
          >
            <title>{`${point.date}: ${format(point.value)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
