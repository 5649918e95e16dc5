/** The dashboard's date filters; the default is the moving window of the last 30 days (spec §9). */
export const DASHBOARD_RANGES = [
  { value: "7 day", label: "Last 7 days" },
  { value: "30 day", label: "Last 30 days" },
  { value: "90 day", label: "Last 90 days" },
  { value: "1 year", label: "Last 12 months" },
];
