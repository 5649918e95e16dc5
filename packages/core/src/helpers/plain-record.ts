/** A non-null object that is not an array: the shape of parsed JSON objects and saved settings. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
