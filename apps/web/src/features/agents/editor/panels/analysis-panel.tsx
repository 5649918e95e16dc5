import { Button, Card, Group, Select, Stack, TagsInput, Text, Textarea, TextInput } from "@mantine/core";
import type { AnalysisField } from "@switchboard/api";
import {
  ANALYSIS_FIELD_TYPES,
  type AnalysisFieldType,
  analysisFieldNameProblem,
  MAX_ANALYSIS_FIELDS,
} from "@switchboard/core";
import { useState } from "react";
import type { PanelProps } from "../panels.ts";

const TYPE_LABELS: Record<AnalysisFieldType, string> = {
  text: "Text",
  number: "Number",
  boolean: "Yes or no",
  enum: "One of a list",
};

/** Why the fields cannot be saved yet, per field (null: fine). */
function problemsOf(fields: AnalysisField[]): (string | null)[] {
  const seen = new Set<string>();
  return fields.map((field) => {
    const problem = analysisFieldNameProblem(field.name.trim());
    if (problem) return problem;
    const key = field.name.trim().toLowerCase();
    if (seen.has(key)) return `Two fields are named “${field.name.trim()}”.`;
    seen.add(key);
    if (field.type === "enum" && field.options.length === 0)
      return `Give the values “${field.name}” may take.`;
    return null;
  });
}

function freeName(fields: AnalysisField[]): string {
  for (let n = fields.length + 1; ; n++) {
    const name = `field${n}`;
    if (!fields.some((field) => field.name === name)) return name;
  }
}

/**
 * Call analysis: when a call or chat with the agent ends, it is judged against the success rule and the
 * fields are filled in (Calls shows them; log filters, columns, exports and metrics read them). Fields are
 * saved once each is valid; until then the panel says what is wrong.
 */
export function AnalysisPanel({ editor, state }: PanelProps) {
  const analysis = state.draft.analysis;
  const [fields, setFields] = useState<AnalysisField[]>(analysis.fields);
  const problems = problemsOf(fields);

  const change = (next: AnalysisField[]) => {
    setFields(next);
    if (problemsOf(next).every((problem) => problem === null))
      editor.edit({
        analysis: { ...analysis, fields: next.map((field) => ({ ...field, name: field.name.trim() })) },
      });
  };
  const update = (index: number, patch: Partial<AnalysisField>) =>
    change(fields.map((field, i) => (i === index ? { ...field, ...patch } : field)));

  return (
    <Stack gap="md">
      <Text size="sm">
        When a call or chat with this agent ends, it is analysed: a short summary, whether it succeeded by
        your rule, and the fields below. They show in Calls (call details), and as columns, filters, exports
        and metrics under their names. Webhooks receive them as <code>call.analyzed</code>.
      </Text>
      <Textarea
        label="Success rule"
        description="What makes a conversation a success, in plain words. Empty: no verdict."
        placeholder="Booked an appointment or answered the question"
        autosize
        minRows={2}
        value={analysis.successRule ?? ""}
        onChange={(event) =>
          editor.edit({ analysis: { ...analysis, successRule: event.currentTarget.value || null } })
        }
      />
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Fields to fill in
        </Text>
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            No fields yet. Add one, e.g. <code>reason</code> (text), <code>urgent</code> (yes or no) or{" "}
            <code>callbackNumber</code> (text).
          </Text>
        ) : null}
        {fields.map((field, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a field's name is what the user is editing.
          <Card key={index} withBorder padding="sm" data-testid="analysis-field">
            <Stack gap="xs">
              <Group grow align="flex-start">
                <TextInput
                  label="Name"
                  value={field.name}
                  error={problems[index]}
                  onChange={(event) => update(index, { name: event.currentTarget.value })}
                />
                <Select
                  label="Type"
                  data={ANALYSIS_FIELD_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] }))}
                  value={field.type}
                  allowDeselect={false}
                  onChange={(value) => update(index, { type: (value ?? "text") as AnalysisFieldType })}
                />
              </Group>
              <TextInput
                label="Description"
                placeholder="What it holds, e.g. The number the caller wants to be called back on"
                value={field.description}
                onChange={(event) => update(index, { description: event.currentTarget.value })}
              />
              {field.type === "enum" ? (
                <TagsInput
                  label="Values"
                  placeholder="Type a value and press Enter"
                  value={field.options}
                  onChange={(options) => update(index, { options })}
                />
              ) : null}
              <Button
                variant="subtle"
                color="red"
                size="xs"
                w="fit-content"
                onClick={() => change(fields.filter((_, i) => i !== index))}
              >
                Remove {field.name || "field"}
              </Button>
            </Stack>
          </Card>
        ))}
        <Button
          variant="light"
          w="fit-content"
          disabled={fields.length >= MAX_ANALYSIS_FIELDS}
          onClick={() =>
            change([...fields, { name: freeName(fields), type: "text", description: "", options: [] }])
          }
        >
          Add field
        </Button>
      </Stack>
    </Stack>
  );
}
