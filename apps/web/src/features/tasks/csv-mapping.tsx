import { Alert, Badge, Group, Select, SimpleGrid, Table, Text } from "@mantine/core";
import {
  type ColumnOverrides,
  type CsvPreview,
  FIELD_LABELS,
  PERSON_FIELDS,
  type PersonField,
} from "./csv-preview.ts";

/**
 * The mapping preview of a chosen file: which column becomes the phone number, name, e-mail and time zone
 * (each changeable), the other columns as variables, and the first rows as read.
 */
export function CsvMapping({
  preview,
  overrides,
  onChange,
}: {
  preview: CsvPreview;
  overrides: ColumnOverrides;
  onChange: (field: PersonField, header: string | null) => void;
}) {
  const options = preview.headers.map((header) => ({ value: header, label: header }));
  const current = (field: PersonField) => {
    const index = preview.fields.indexOf(field);
    return index >= 0 ? (preview.headers[index] ?? null) : null;
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        {PERSON_FIELDS.map((field) => (
          <Select
            key={field}
            size="xs"
            label={`${FIELD_LABELS[field]} column`}
            placeholder="None"
            data={options}
            value={current(field) ?? overrides[field] ?? null}
            allowDeselect={false}
            onChange={(header) => onChange(field, header)}
          />
        ))}
      </SimpleGrid>
      {preview.missingPhone ? (
        <Alert color="red" variant="light" role="alert">
          The file has no phone number column (phone, phone number, number or mobile). Choose the column that
          holds the numbers.
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={280}>
        <Table withTableBorder withColumnBorders fz="xs" aria-label="Column mapping preview">
          <Table.Thead>
            <Table.Tr>
              {preview.headers.map((header, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are known by their place (headers may repeat).
                <Table.Th key={`${header}-${index}`}>
                  <Group gap={4} wrap="nowrap">
                    <Text size="xs" fw={600}>
                      {header}
                    </Text>
                    <Badge
                      size="xs"
                      variant="light"
                      color={preview.fields[index] === "variable" ? "gray" : "blue"}
                    >
                      {preview.fields[index] === "variable"
                        ? `{${header}}`
                        : FIELD_LABELS[preview.fields[index] ?? "variable"]}
                    </Badge>
                  </Group>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, rowIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are known by their place in the file.
              <Table.Tr key={rowIndex}>
                {preview.headers.map((header, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are known by their place (headers may repeat).
                  <Table.Td key={`${header}-${index}`}>{row[index] ?? ""}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {preview.rows.length === 1 ? "The first row." : `The first ${preview.rows.length} rows.`} Other
        columns become variables the agent's instructions and the message can use as {"{column}"}.
      </Text>
    </>
  );
}
