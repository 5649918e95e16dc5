import { Button, Group, NativeSelect, TextInput } from "@mantine/core";
import { useState } from "react";

/** The relative ranges offered; a custom range is `start,end` (YYYY-MM-DD). */
export const DATE_RANGES = [
  { value: "7 day", label: "Last 7 days" },
  { value: "30 day", label: "Last 30 days" },
  { value: "90 day", label: "Last 90 days" },
  { value: "1 year", label: "Last 12 months" },
  { value: "custom", label: "Custom range…" },
] as const;

/** The date range of the calls: a relative range, or a custom one with From, To and Apply range. */
export function DateRangePicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const isCustom = value?.includes(",") ?? false;
  const [start, end] = isCustom ? (value as string).split(",") : ["", ""];
  const [custom, setCustom] = useState(isCustom);
  const [from, setFrom] = useState(start ?? "");
  const [to, setTo] = useState(end ?? "");
  return (
    <Group gap="xs" align="end">
      {/* A native select: a Mantine Select renders its list and positions it while closed. */}
      <NativeSelect
        label="Date range"
        w={180}
        data={DATE_RANGES.map((range) => ({ value: range.value, label: range.label }))}
        value={custom ? "custom" : (value ?? "30 day")}
        onChange={(event) => {
          const next = event.currentTarget.value;
          if (next === "custom") setCustom(true);
          else {
            setCustom(false);
            onChange(next === "30 day" ? undefined : next);
          }
        }}
      />
      {custom ? (
        <>
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button
            variant="default"
            disabled={!from || !to || from > to}
            onClick={() => onChange(`${from},${to}`)}
          >
            Apply range
          </Button>
        </>
      ) : null}
    </Group>
  );
}
