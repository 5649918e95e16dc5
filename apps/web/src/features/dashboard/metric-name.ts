/** A metric name from its title: `Long calls` -> `longCalls`, unique among `taken`. */
export function metricNameOf(title: string, taken: readonly string[]): string {
  const words = title
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const base =
    words
      .map((word, i) =>
        i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
      )
      .join("") || "metric";
  let name = base.slice(0, 60);
  for (let n = 2; taken.includes(name); n++) name = `${base.slice(0, 56)}${n}`;
  return name;
}
