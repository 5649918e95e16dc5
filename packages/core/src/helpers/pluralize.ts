/** Pluralisation helper (product spec §9): 1 takes the singular; any other count the plural (`s` added, or the given plural). */
export function pluralize(count: number, singular: string, plural?: string): string {
  return count === 1 ? singular : (plural ?? `${singular}s`);
}

/** A count with its word, as people read it: `1 row`, `0 rows`, `1,200 rows`. */
export function countOf(count: number, singular: string, plural?: string): string {
  return `${count.toLocaleString("en-US")} ${pluralize(count, singular, plural)}`;
}
