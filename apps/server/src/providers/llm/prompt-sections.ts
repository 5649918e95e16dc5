/**
 * The headings of the system prompt the runtime builds. Real models read them as prose; the sandbox model
 * reads the same prompt and finds its greeting, instructions, time zone and current time by them, so both go
 * through one engine path.
 */
export const PROMPT_SECTIONS = {
  greeting: "## Greeting",
  instructions: "## Instructions",
} as const;

/** The line that states the current time: `Current date and time: <text> (<ISO with offset>), time zone <IANA>.` */
export const CURRENT_TIME_LABEL = "Current date and time:";

export type PromptFacts = {
  greeting: string | null;
  instructions: string;
  /** ms epoch of the conversation's "now". */
  now: number;
  timeZone: string;
};

/** Reads the sections back out of a system prompt the runtime built. */
export function readPromptFacts(system: string, fallbackNow: number): PromptFacts {
  const section = (heading: string) => {
    const start = system.indexOf(`${heading}\n`);
    if (start < 0) return null;
    const body = system.slice(start + heading.length + 1);
    const next = body.search(/\n## /);
    return (next < 0 ? body : body.slice(0, next)).trim();
  };
  const timeLine = system.split("\n").find((line) => line.startsWith(CURRENT_TIME_LABEL)) ?? "";
  const iso = timeLine.match(/\((\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2}))\)/)?.[1];
  const zone = timeLine.match(/time zone ([A-Za-z0-9_+\-/]+)/)?.[1];
  const parsed = iso ? Date.parse(iso) : Number.NaN;
  return {
    greeting: section(PROMPT_SECTIONS.greeting) || null,
    instructions: section(PROMPT_SECTIONS.instructions) ?? "",
    now: Number.isNaN(parsed) ? fallbackNow : parsed,
    timeZone: zone ?? "UTC",
  };
}
