import { useState } from "react";

type Issue = { path: readonly PropertyKey[]; message: string };

/** What the form needs of a zod schema (the API's schemas; web does not depend on zod itself). */
export type ParseSchema<T> = {
  safeParse: (value: unknown) => { success: true; data: T } | { success: false; error: { issues: Issue[] } };
};

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Text fields as typed: empty ones are left out, so optional schema fields stay unset. */
export function presentFields<K extends string>(values: Record<K, string>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [key, value] of Object.entries(values) as [K, string][])
    if (value.trim() !== "") out[key] = value;
  return out;
}

/** The first message of each field of a failed parse. */
export function fieldErrors<K extends string>(
  error: { issues: Issue[] },
  keys: readonly K[],
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === "string" && (keys as readonly string[]).includes(key) && !errors[key as K])
      errors[key as K] = issue.message;
  }
  return errors;
}

/**
 * A form of text fields validated with the API's own zod schema (the one the server uses): `field(name)`
 * gives an input its value, error and change handler; `parse(extra)` answers the parsed body or null after
 * showing the errors. Empty optional fields are left out; `required` fields are always sent.
 */
export function useSchemaForm<K extends string, T>(
  schema: ParseSchema<T>,
  initial: Record<K, string>,
  options: { required?: readonly NoInfer<K>[] } = {},
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const keys = Object.keys(initial) as K[];
  return {
    values,
    errors,
    setErrors,
    setValue: (key: K, value: string) => setValues((current) => ({ ...current, [key]: value })),
    field: (key: K) => ({
      value: values[key],
      error: errors[key],
      onChange: (event: { currentTarget: { value: string } }) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [key]: value }));
      },
    }),
    parse: (extra: Record<string, unknown> = {}, parseOptions: { keepEmpty?: boolean } = {}): T | null => {
      // Required fields go as typed, so an empty one gets the schema's own message ("Enter a name.").
      const required = Object.fromEntries((options.required ?? []).map((key) => [key, values[key]]));
      const base = parseOptions.keepEmpty ? values : { ...presentFields(values), ...required };
      const parsed = schema.safeParse({ ...base, ...extra });
      if (parsed.success) {
        setErrors({});
        return parsed.data;
      }
      setErrors(fieldErrors(parsed.error, keys));
      return null;
    },
    reset: () => {
      setValues(initial);
      setErrors({});
    },
  };
}

/** The body schema of a route of the API (defined for every route that takes a JSON body). */
export function bodySchemaOf<T extends { id: string; body?: unknown }>(route: T): NonNullable<T["body"]> {
  if (!route.body) throw new Error(`${route.id} has no body schema`);
  return route.body as NonNullable<T["body"]>;
}
