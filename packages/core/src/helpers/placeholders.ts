/**
 * `{key}` placeholders filled from `values`, keys compared without case (and trimmed); unknown ones stay as
 * written. Task messages and voicemail messages use it with a task's columns ({name}, {first_name}, ...).
 */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  const lower = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  return text.replace(
    /\{([^{}\n]{1,100})\}/g,
    (whole, key: string) => lower.get(key.trim().toLowerCase()) ?? whole,
  );
}
