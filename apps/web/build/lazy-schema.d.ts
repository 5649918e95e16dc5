/** A value built on first use: see lazy-schema.js. */
export function lazySchema<T extends object>(make: () => T): T;
