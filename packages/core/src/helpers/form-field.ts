/**
 * Form-field helper of product spec §3 (form field descriptor) and §5 (form helper): every field carries its
 * value, error, blurred flag, type, required flag, an optional custom validator and an optional label.
 * Functions here never mutate their input.
 */

export type FormFieldType = "string" | "integer" | "float" | "boolean" | "date";

/** Message of a required field that is null or empty (product spec §5). */
export const REQUIRED_FIELD_MESSAGE = "This field is required";

/** Returns an error message, or null/undefined when the value is acceptable. Gets every field's current value. */
export type FormFieldValidator = (
  value: unknown,
  values: Readonly<Record<string, unknown>>,
) => string | null | undefined;

export type FormField = {
  value: unknown;
  error: string | null;
  blurred: boolean;
  type: FormFieldType;
  required: boolean;
  validator?: FormFieldValidator;
  label?: string;
};

export type FormFields = Readonly<Record<string, FormField>>;

export type FormFieldInit = Partial<Omit<FormField, "error" | "blurred">>;

/** A fresh field: value `""`, no error, not blurred, type string, not required unless told otherwise. */
export function createFormField(init: FormFieldInit = {}): FormField {
  return {
    value: "",
    type: "string",
    required: false,
    ...init,
    error: null,
    blurred: false,
  };
}

/** Null, undefined, a blank string or an empty array. */
export function isEmptyFormValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The values of all fields, by name. */
export function formValues(fields: FormFields): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) values[name] = field.value;
  return values;
}

/**
 * The error of one field: {@link REQUIRED_FIELD_MESSAGE} when required and empty; otherwise the custom
 * validator's message (validators run only on non-empty values); otherwise null.
 */
export function validateFormField(
  field: FormField,
  values: Readonly<Record<string, unknown>> = {},
): string | null {
  if (isEmptyFormValue(field.value)) return field.required ? REQUIRED_FIELD_MESSAGE : null;
  return field.validator?.(field.value, values) || null;
}

/** Sets a value; a field already blurred is re-validated so its error follows the typing. */
export function setFormFieldValue(fields: FormFields, name: string, value: unknown): FormFields {
  const field = fields[name];
  if (!field) return fields;
  const next = { ...fields, [name]: { ...field, value } };
  if (!field.blurred) return next;
  return {
    ...next,
    [name]: { ...field, value, error: validateFormField({ ...field, value }, formValues(next)) },
  };
}

/** Marks a field blurred (the user left it) and validates it. */
export function blurFormField(fields: FormFields, name: string): FormFields {
  const field = fields[name];
  if (!field) return fields;
  return {
    ...fields,
    [name]: { ...field, blurred: true, error: validateFormField(field, formValues(fields)) },
  };
}

/** Validates every field and marks each blurred, as a submit does. */
export function validateForm(fields: FormFields): { valid: boolean; fields: FormFields } {
  const values = formValues(fields);
  const next: Record<string, FormField> = {};
  let valid = true;
  for (const [name, field] of Object.entries(fields)) {
    const error = validateFormField(field, values);
    if (error) valid = false;
    next[name] = { ...field, blurred: true, error };
  }
  return { valid, fields: next };
}

/**
 * Coerces a value by field type on submit: integer and float parse the number (null when not a number),
 * boolean is true only for `true` or `"true"`, date becomes a `Date` (null when invalid), string stays as given.
 * Empty values become null for every type but string and boolean.
 */
export function coerceFormValue(type: FormFieldType, value: unknown): unknown {
  switch (type) {
    case "string":
      return value;
    case "boolean":
      return value === true || value === "true";
    case "integer":
    case "float": {
      if (isEmptyFormValue(value)) return null;
      const text = String(value).trim();
      const parsed = type === "integer" ? Number.parseInt(text, 10) : Number.parseFloat(text);
      return Number.isFinite(parsed) ? parsed : null;
    }
    case "date": {
      if (isEmptyFormValue(value)) return null;
      const date =
        value instanceof Date
          ? new Date(value.getTime())
          : new Date(typeof value === "number" ? value : String(value));
      return Number.isNaN(date.getTime()) ? null : date;
    }
  }
}

export type FormSubmitResult =
  | { valid: true; values: Record<string, unknown>; fields: FormFields }
  | { valid: false; fields: FormFields };

/** Submit: validates every field; when all pass, returns the values coerced by type. */
export function submitForm(fields: FormFields): FormSubmitResult {
  const checked = validateForm(fields);
  if (!checked.valid) return { valid: false, fields: checked.fields };
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(checked.fields))
    values[name] = coerceFormValue(field.type, field.value);
  return { valid: true, values, fields: checked.fields };
}
