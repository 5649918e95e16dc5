/** Pluralisation helper (product spec §9): 1 takes the singular; any other count the plural (`s` added, or the given plural). */
export function pluralize(count: number, singular: string, plural?: string): string {
  return count === 1 ? singular : (plural ?? `${singular}s`);
}
