/**
 * A contact's free nested fields as the edit form holds them: rows of key and value, where a value is a
 * text, a list of values or a group of rows (a nested object). The form starts from the stored fields and
 * answers the whole merged object, which an update sends as newData (spec §3 Contact).
 */

/** Fields the server owns (answered with every contact, never stored among its free fields). */
export const SERVER_FIELDS = ["id", "displayName", "addresses", "createdAt", "updatedAt"] as const;

export type FieldValue =
  | {
      kind: "text";
      text: string;
      /** The stored value when it is not a string (a number, true, null): kept as is while its text is. */
      original?: unknown;
    }
  | { kind: "list"; items: FieldValue[] }
  | { kind: "group"; fields: FieldRow[] };

export type FieldRow = {
  /** Stable React key. */
  id: string;
  key: string;
  /** A row the user added: its key is typed in the form. */
  newKey?: boolean;
  value: FieldValue;
};

let nextId = 0;
export function rowId(): string {
  nextId += 1;
  return `f${nextId}`;
}

/** The stored free fields of a contact answer: everything but the server's own fields. */
export function freeFields(contact: Record<string, unknown>): Record<string, unknown> {
  const own = new Set<string>(SERVER_FIELDS);
  return Object.fromEntries(Object.entries(contact).filter(([key]) => !own.has(key)));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function toFieldValue(value: unknown): FieldValue {
  if (typeof value === "string") return { kind: "text", text: value };
  if (Array.isArray(value)) return { kind: "list", items: value.map(toFieldValue) };
  if (isRecord(value)) return { kind: "group", fields: toFieldRows(value) };
  return { kind: "text", text: value === null || value === undefined ? "" : String(value), original: value };
}

const FIRST_KEYS = ["name", "fullName", "displayName", "firstName", "lastName", "company", "title"];
/** Keys a contact's phone numbers and e-mails are under (the server matches conversations by them). */
export const ADDRESS_KEY = /phone|mobile|cell|number|email|e-mail|sms/i;

function keyRank(key: string): number {
  const first = FIRST_KEYS.indexOf(key);
  if (first >= 0) return first;
  if (/phone|mobile|cell|number|sms/i.test(key)) return 10;
  if (/e-?mail/i.test(key)) return 11;
  if (/^notes?$/i.test(key)) return 30;
  return 20;
}

/**
 * An object's entries in the order people read a contact: names, company, phone numbers, e-mails, the
 * rest alphabetically, notes last (stored JSON keeps its own order, by key length).
 */
export function orderedEntries(data: Record<string, unknown>): [string, unknown][] {
  return Object.entries(data).sort(
    ([a], [b]) => keyRank(a) - keyRank(b) || (keyRank(a) === 20 ? a.localeCompare(b) : 0),
  );
}

/** The rows of an object, in reading order (orderedEntries). */
export function toFieldRows(data: Record<string, unknown>): FieldRow[] {
  return orderedEntries(data).map(([key, value]) => ({ id: rowId(), key, value: toFieldValue(value) }));
}

const EMPTY = Symbol("empty");

/** The value a field holds; EMPTY for a blank text and for a list or group with nothing in it. */
function fromFieldValue(value: FieldValue): unknown {
  switch (value.kind) {
    case "text": {
      if ("original" in value && value.text === String(value.original ?? "")) return value.original;
      return value.text.trim() === "" ? EMPTY : value.text.trim();
    }
    case "list": {
      const items = value.items.map(fromFieldValue).filter((item) => item !== EMPTY);
      return items.length === 0 ? EMPTY : items;
    }
    case "group": {
      const object = fromFieldRows(value.fields);
      return Object.keys(object).length === 0 ? EMPTY : object;
    }
  }
}

/** The object the rows describe: blank keys and empty values are left out; a later duplicate key wins. */
export function fromFieldRows(rows: readonly FieldRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (!key) continue;
    const value = fromFieldValue(row.value);
    if (value !== EMPTY) out[key] = value;
  }
  return out;
}

/**
 * newData for an update: the whole merged object. The contact's current free fields, where the form owns
 * every key it loaded (`loadedKeys`) and every key it shows now: those take the form's values (a blank
 * value or a removed or renamed row removes the key). A field the form never loaded (added elsewhere since)
 * stays as stored.
 */
export function mergeNewData(
  current: Record<string, unknown>,
  rows: readonly FieldRow[],
  loadedKeys: readonly string[],
): Record<string, unknown> {
  const merged = freeFields(current);
  for (const key of loadedKeys) delete merged[key];
  for (const row of rows) delete merged[row.key.trim()];
  // The server's own fields (id, displayName, ...) are never free fields, even when typed as keys.
  return freeFields({ ...merged, ...fromFieldRows(rows) });
}

/** The rows of a new contact: name, phone numbers, e-mails, company and notes. */
export function newContactRows(): FieldRow[] {
  return [
    { id: rowId(), key: "name", value: { kind: "text", text: "" } },
    { id: rowId(), key: "phoneNumbers", value: { kind: "list", items: [{ kind: "text", text: "" }] } },
    { id: rowId(), key: "emails", value: { kind: "list", items: [{ kind: "text", text: "" }] } },
    { id: rowId(), key: "company", value: { kind: "text", text: "" } },
    { id: rowId(), key: "notes", value: { kind: "text", text: "" } },
  ];
}

const LABELS: Record<string, string> = {
  phoneNumbers: "Phone numbers",
  emails: "E-mails",
  email: "E-mail",
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name",
};

/** "phoneNumbers" -> "Phone numbers", "insurance_member" -> "Insurance member". */
export function fieldLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Field";
}

/** The label of a list's items: "Phone numbers" -> "Phone number". */
export function singularLabel(label: string): string {
  return label.endsWith("s") && !label.endsWith("ss") ? label.slice(0, -1) : label;
}

/** An empty value shaped like `like` (a new item of a list of `{ label, value }` groups gets both keys). */
export function emptyLike(like: FieldValue | undefined): FieldValue {
  if (like?.kind === "group")
    return {
      kind: "group",
      fields: like.fields.map((row) => ({ id: rowId(), key: row.key, value: emptyLike(row.value) })),
    };
  if (like?.kind === "list") return { kind: "list", items: [] };
  return { kind: "text", text: "" };
}

// Updating the tree immutably -------------------------------------------------------------------------

export function updateRow(rows: FieldRow[], id: string, change: (row: FieldRow) => FieldRow): FieldRow[] {
  return rows.map((row) => (row.id === id ? change(row) : row));
}

export function removeRow(rows: FieldRow[], id: string): FieldRow[] {
  return rows.filter((row) => row.id !== id);
}
