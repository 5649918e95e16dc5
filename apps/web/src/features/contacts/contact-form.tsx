import { Alert, Button, Group, Stack } from "@mantine/core";
import { type Contact, saveContact } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { bodySchemaOf } from "../../lib/schema-form.ts";
import { useSaveContact } from "./api.ts";
import { type FieldRow, freeFields, fromFieldRows, mergeNewData } from "./contact-fields.ts";
import { FieldRows } from "./field-editor.tsx";

const saveBody = bodySchemaOf(saveContact);

/**
 * The contact form: its free fields as rows. A new contact sends the rows' object as newData; an edit sends
 * the whole merged object (the contact's current fields merged with the form's) with its id.
 */
export function ContactForm(props: {
  initialRows: FieldRow[];
  /** The contact being edited (its current copy, read at save time), or undefined for a new one. */
  current?: () => Contact | undefined;
  /** The free-field keys the form was loaded with (an edit). */
  loadedKeys?: readonly string[];
  submitLabel: string;
  onCancel: () => void;
  onSaved: (contact: Contact) => void;
}) {
  const [rows, setRows] = useState(props.initialRows);
  // The keys as loaded when the form opened: a refetch while editing must not change what the form owns.
  const [loadedKeys] = useState(props.loadedKeys ?? []);
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useSaveContact();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const current = props.current?.();
    const newData = current ? mergeNewData(current, rows, loadedKeys) : fromFieldRows(rows);
    // The server's own schema: key lengths and the size limit.
    const parsed = saveBody.safeParse(current ? { id: current.id, newData } : { newData });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? "The contact is not valid.");
      return;
    }
    setInvalid(null);
    save.mutate(current ? { id: current.id, newData, previous: current } : { newData }, {
      onSuccess: ({ contact }) => props.onSaved(contact),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Contact">
      <Stack gap="md">
        <FieldRows rows={rows} onChange={setRows} />
        {invalid ? (
          <Alert color="red" variant="light" role="alert">
            {invalid}
          </Alert>
        ) : null}
        <ActionError error={save.error} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={props.onCancel} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The free-field keys of a loaded contact. */
export const loadedKeysOf = (contact: Contact) => Object.keys(freeFields(contact));
