import { ActionIcon, Button, Fieldset, Group, Stack, Textarea, TextInput } from "@mantine/core";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import {
  emptyLike,
  type FieldRow,
  type FieldValue,
  fieldLabel,
  removeRow,
  rowId,
  singularLabel,
  updateRow,
} from "./contact-fields.ts";

/** Nested groups deeper than this are still kept, but edited as a whole only down to here. */
const MAX_DEPTH = 5;

/** Legends of lists and groups read like the inputs' labels. */
const LEGEND_STYLES = { legend: { fontWeight: 500, fontSize: "var(--mantine-font-size-sm)" } };

function joinLabel(prefix: string, label: string): string {
  return prefix ? `${prefix} ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label;
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${label}`} onClick={onClick} mt={4}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}

function TextValue(props: {
  label: string;
  multiline: boolean;
  value: Extract<FieldValue, { kind: "text" }>;
  onChange: (value: FieldValue) => void;
  hideLabel?: boolean;
}) {
  const common = {
    value: props.value.text,
    onChange: (event: { currentTarget: { value: string } }) =>
      props.onChange({ ...props.value, text: event.currentTarget.value }),
    style: { flex: 1 },
  };
  const labelProps = props.hideLabel ? { "aria-label": props.label } : { label: props.label };
  return props.multiline ? (
    <Textarea autosize minRows={2} {...labelProps} {...common} />
  ) : (
    <TextInput {...labelProps} {...common} />
  );
}

function ListValue(props: {
  fieldKey: string;
  label: string;
  value: Extract<FieldValue, { kind: "list" }>;
  onChange: (value: FieldValue) => void;
  depth: number;
}) {
  const item = singularLabel(props.label);
  const setItem = (index: number, next: FieldValue) =>
    props.onChange({ ...props.value, items: props.value.items.map((v, i) => (i === index ? next : v)) });
  const removeItem = (index: number) =>
    props.onChange({ ...props.value, items: props.value.items.filter((_v, i) => i !== index) });
  return (
    <Fieldset legend={props.label} variant="unstyled" style={{ flex: 1 }} styles={LEGEND_STYLES}>
      <Stack gap={6}>
        {props.value.items.map((value, index) => {
          const label = props.value.items.length > 1 ? `${item} ${index + 1}` : item;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their place.
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <FieldValueEditor
                fieldKey={props.fieldKey}
                label={label}
                value={value}
                onChange={(next) => setItem(index, next)}
                depth={props.depth + 1}
                hideLabel
              />
              <RemoveButton label={label} onClick={() => removeItem(index)} />
            </Group>
          );
        })}
        <Button
          size="compact-sm"
          variant="subtle"
          w="fit-content"
          onClick={() =>
            props.onChange({ ...props.value, items: [...props.value.items, emptyLike(props.value.items[0])] })
          }
        >
          Add {item.charAt(0).toLowerCase()}
          {item.slice(1)}
        </Button>
      </Stack>
    </Fieldset>
  );
}

function FieldValueEditor(props: {
  fieldKey: string;
  label: string;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  depth: number;
  hideLabel?: boolean;
}) {
  const { value } = props;
  if (value.kind === "text")
    return (
      <TextValue
        label={props.label}
        multiline={/notes?|description|comment/i.test(props.fieldKey)}
        value={value}
        onChange={props.onChange}
        {...(props.hideLabel ? { hideLabel: true } : {})}
      />
    );
  if (value.kind === "list")
    return (
      <ListValue
        fieldKey={props.fieldKey}
        label={props.label}
        value={value}
        onChange={props.onChange}
        depth={props.depth}
      />
    );
  return (
    <Fieldset legend={props.label} style={{ flex: 1 }} styles={LEGEND_STYLES} aria-label={props.label}>
      <FieldRows
        rows={value.fields}
        onChange={(fields) => props.onChange({ ...value, fields })}
        prefix={props.label}
        depth={props.depth + 1}
      />
    </Fieldset>
  );
}

/**
 * A contact's free fields as rows of key and value: a text, a list (each item a value), or a group of rows
 * (a nested object), with rows and items to add and remove.
 */
export function FieldRows(props: {
  rows: FieldRow[];
  onChange: (rows: FieldRow[]) => void;
  /** Label of the enclosing group ("Insurance"): nested inputs are named "Insurance provider". */
  prefix?: string;
  depth?: number;
}) {
  const prefix = props.prefix ?? "";
  const depth = props.depth ?? 0;
  const { rows, onChange } = props;
  const fieldNameLabel = joinLabel(prefix, "Field name");
  // Inside a group: "Add field to insurance" (a group not yet named: "to this group").
  const into = prefix ? ` to ${/new field$/i.test(prefix) ? "this group" : prefix.toLowerCase()}` : "";
  return (
    <Stack gap="sm">
      {rows.map((row) => {
        const label = joinLabel(prefix, row.key.trim() ? fieldLabel(row.key) : "New field");
        const set = (value: FieldValue) => onChange(updateRow(rows, row.id, (r) => ({ ...r, value })));
        return (
          <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
            {row.newKey ? (
              <TextInput
                aria-label={fieldNameLabel}
                placeholder="Field name"
                value={row.key}
                w={150}
                onChange={(event) => {
                  const key = event.currentTarget.value;
                  onChange(updateRow(rows, row.id, (r) => ({ ...r, key })));
                }}
              />
            ) : null}
            {depth >= MAX_DEPTH && row.value.kind !== "text" ? (
              <TextInput
                label={label}
                value="(nested fields kept as they are)"
                readOnly
                style={{ flex: 1 }}
              />
            ) : (
              <FieldValueEditor
                fieldKey={row.key}
                label={label}
                value={row.value}
                onChange={set}
                depth={depth}
                {...(row.newKey ? { hideLabel: true } : {})}
              />
            )}
            <RemoveButton label={label} onClick={() => onChange(removeRow(rows, row.id))} />
          </Group>
        );
      })}
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="light"
          onClick={() =>
            onChange([...rows, { id: rowId(), key: "", newKey: true, value: { kind: "text", text: "" } }])
          }
        >
          Add field{into}
        </Button>
        {depth < MAX_DEPTH - 1 ? (
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() =>
              onChange([
                ...rows,
                {
                  id: rowId(),
                  key: "",
                  newKey: true,
                  value: {
                    kind: "group",
                    fields: [{ id: rowId(), key: "", newKey: true, value: { kind: "text", text: "" } }],
                  },
                },
              ])
            }
          >
            Add group{into}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
