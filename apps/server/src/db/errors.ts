/** The PostgreSQL error code of a failed query, looking through Drizzle's wrapper (both drivers). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the row (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === "23505";

/** A foreign key refused the row: what it points to is gone (SQLSTATE 23503). */
export const isForeignKeyViolation = (error: unknown): boolean => pgErrorCode(error) === "23503";
