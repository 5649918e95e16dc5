/**
 * Template fields of the onboarding wizard (product spec §3 Onboarding state and Template, §4.1): skipping,
 * pre-fill, placeholders and the stale-template check.
 */

export type TemplateFieldOption = { value: string; label?: string };

export type TemplateField = {
  key: string;
  type?: string;
  inputType?: string;
  label?: string;
  /** Options as value items (plain strings are read as `{ value }`). */
  options?: Array<TemplateFieldOption | string>;
  value?: unknown;
  placeholder?: string;
  /** `key=value`: the field is disabled while the field `key` holds `value`. */
  disabledIf?: string;
  /** Filled from pre-fill data; skipped by the wizard. */
  autoPrefilled?: boolean;
};

export type OnboardingTemplate = {
  id: string;
  templateFields?: TemplateField[];
  templateIntegrations?: string[];
  /** An action named `schedule` implies the calendar integration. */
  actions?: Array<{ name: string }>;
  apps?: Array<{ appId: string; version?: string }>;
};

/** The integration a `schedule` action implies. */
export const CALENDAR_INTEGRATION = "calendar";

/** Pre-fill data (product spec §4.1). */
export type OnboardingPrefill = {
  /** Resolved against the time-zone table: zone name, value, partial name or offset; UTC otherwise. */
  timezone?: string | number;
  agentVoice?: string;
  skipTimezoneStep?: boolean;
  skipVoiceStep?: boolean;
  /** Field values by field key. */
  templateFields?: Readonly<Record<string, unknown>>;
  /** Keys of fields to mark auto-prefilled (skipped). */
  fieldsToSkip?: readonly string[];
  /** Integrations the wizard does not ask for. */
  integrationsToSkip?: readonly string[];
};

/** The integrations of a template: its own list, plus the calendar when an action is named schedule. */
export function templateIntegrationsOf(template: OnboardingTemplate): string[] {
  const list = [...new Set(template.templateIntegrations ?? [])];
  const schedules = (template.actions ?? []).some((action) => action.name === "schedule");
  if (schedules && !list.includes(CALENDAR_INTEGRATION)) list.push(CALENDAR_INTEGRATION);
  return list;
}

/** Option values of a field. */
export function optionValues(field: TemplateField): string[] {
  return (field.options ?? []).map((option) => (typeof option === "string" ? option : String(option.value)));
}

/** `select`, `multiselect` (also spelt multi-select, multi_select, multiSelect) or `other`. */
export function fieldKind(field: TemplateField): "select" | "multiselect" | "other" {
  const kind = String(field.type ?? field.inputType ?? "")
    .toLowerCase()
    .replace(/[-_\s]/g, "");
  return kind === "select" ? "select" : kind === "multiselect" ? "multiselect" : "other";
}

/** Reads `key=value`; null when the condition has no `=` or no key. */
export function parseDisabledIf(condition: string | undefined): { key: string; value: string } | null {
  if (typeof condition !== "string") return null;
  const at = condition.indexOf("=");
  if (at <= 0) return null;
  const key = condition.slice(0, at).trim();
  return key === "" ? null : { key, value: condition.slice(at + 1).trim() };
}

/** Whether the field's disabledIf condition holds against another field's value (lists: any item). */
export function isFieldDisabled(field: TemplateField, fields: readonly TemplateField[]): boolean {
  const condition = parseDisabledIf(field.disabledIf);
  if (!condition) return false;
  const other = fields.find((candidate) => candidate !== field && candidate.key === condition.key);
  if (!other || other.value === null || other.value === undefined) return false;
  const values = Array.isArray(other.value) ? other.value : [other.value];
  return values.some((value) => String(value).trim() === condition.value);
}

/** The wizard skips a field that is disabled or auto-prefilled. */
export function isFieldSkipped(field: TemplateField, fields: readonly TemplateField[]): boolean {
  return field.autoPrefilled === true || isFieldDisabled(field, fields);
}

/** Index of the first field at or after `from` that is not skipped, or null. */
export function nextActiveFieldIndex(fields: readonly TemplateField[], from: number): number | null {
  for (let index = Math.max(0, from); index < fields.length; index++) {
    if (!isFieldSkipped(fields[index] as TemplateField, fields)) return index;
  }
  return null;
}

/** Index of the last field at or before `from` that is not skipped, or null. */
export function previousActiveFieldIndex(fields: readonly TemplateField[], from: number): number | null {
  for (let index = Math.min(from, fields.length - 1); index >= 0; index--) {
    if (!isFieldSkipped(fields[index] as TemplateField, fields)) return index;
  }
  return null;
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * A pre-fill value checked against the field: multi-select values (a list or comma text) are filtered to valid
 * options; a select value is kept only when it is a valid option; other fields take any non-empty value.
 * Undefined means the field keeps its own value.
 */
export function prefillValueFor(field: TemplateField, raw: unknown): unknown {
  if (isBlank(raw)) return undefined;
  const kind = fieldKind(field);
  if (kind === "other") return raw;
  const valid = optionValues(field);
  if (kind === "select") {
    const value = String(raw).trim();
    return valid.includes(value) ? value : undefined;
  }
  const items = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [raw];
  const kept = [...new Set(items.map((item) => String(item).trim()))].filter((item) => valid.includes(item));
  return kept.length > 0 ? kept : undefined;
}

/**
 * Every field with a text or number value replaces `{key}` (its own key) in the other fields' values and
 * placeholders, in one pass: a replacement's own text is not searched again.
 */
export function applyFieldPlaceholders(fields: readonly TemplateField[]): TemplateField[] {
  const values = new Map<string, string>();
  for (const field of fields) {
    const valued = (typeof field.value === "string" && field.value !== "") || typeof field.value === "number";
    if (valued && !values.has(field.key)) values.set(field.key, String(field.value));
  }
  if (values.size === 0) return [...fields];
  const fill = (text: string, ownKey: string) =>
    text.replace(/\{([^{}]+)\}/g, (token, key: string) =>
      key !== ownKey && values.has(key) ? (values.get(key) as string) : token,
    );
  return fields.map((field) => {
    const value = typeof field.value === "string" ? fill(field.value, field.key) : field.value;
    const placeholder =
      typeof field.placeholder === "string" ? fill(field.placeholder, field.key) : field.placeholder;
    return value === field.value && placeholder === field.placeholder
      ? field
      : { ...field, value, placeholder };
  });
}

/** Template fields with pre-fill applied: values, fields to skip marked auto-prefilled, then placeholders. */
export function applyPrefillToFields(
  fields: readonly TemplateField[],
  prefill: OnboardingPrefill | undefined,
): TemplateField[] {
  const values = prefill?.templateFields ?? {};
  const skip = new Set(prefill?.fieldsToSkip ?? []);
  const filled = fields.map((field) => {
    const next: TemplateField = { ...field };
    if (Object.hasOwn(values, field.key)) {
      const value = prefillValueFor(field, values[field.key]);
      if (value !== undefined) next.value = value;
    }
    if (skip.has(field.key)) next.autoPrefilled = true;
    return next;
  });
  return applyFieldPlaceholders(filled);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/**
 * Stale-template check (product spec §4.1): a saved template is stale when its integrations, field keys,
 * field types or options differ from the current template. Integrations compare as sets; fields in order.
 */
export function isTemplateStale(
  saved: { templateFields: readonly TemplateField[]; templateIntegrations: readonly string[] },
  current: OnboardingTemplate,
): boolean {
  const currentIntegrations = templateIntegrationsOf(current);
  if (!sameList([...new Set(saved.templateIntegrations)].sort(), [...new Set(currentIntegrations)].sort()))
    return true;
  const currentFields = current.templateFields ?? [];
  if (saved.templateFields.length !== currentFields.length) return true;
  return saved.templateFields.some((field, index) => {
    const other = currentFields[index] as TemplateField;
    return (
      field.key !== other.key ||
      (field.type ?? field.inputType) !== (other.type ?? other.inputType) ||
      !sameList(optionValues(field), optionValues(other))
    );
  });
}
