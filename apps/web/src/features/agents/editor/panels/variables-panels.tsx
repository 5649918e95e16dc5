import { MultiSelect, Select, Stack, Text, Textarea, TextInput } from "@mantine/core";
import type { TemplateField } from "@switchboard/api";
import { LoadingState } from "../../../../components/query-state.tsx";
import { useTemplates } from "../../api.ts";
import type { PanelProps } from "../panels.ts";
import { templateVariables } from "../panels.ts";

function setVariable(props: PanelProps, key: string, value: string) {
  props.editor.edit({ variables: { ...props.state.draft.variables, [key]: value } });
}

function optionsOf(field: TemplateField) {
  return (field.options ?? []).map((option) => ({
    value: option.value,
    label: typeof option.label === "string" ? option.label : option.value,
  }));
}

/** One template field as the input its type asks for. */
function FieldInput({ field, props }: { field: TemplateField; props: PanelProps }) {
  const value = props.state.draft.variables[field.key] ?? "";
  const label = field.label ?? field.key;
  const kind = field.inputType ?? field.type;
  if (kind === "multiselect")
    return (
      <MultiSelect
        label={label}
        data={optionsOf(field)}
        value={value ? value.split(", ") : []}
        onChange={(values) => setVariable(props, field.key, values.join(", "))}
      />
    );
  if (kind === "select" || (field.options?.length ?? 0) > 0)
    return (
      <Select
        label={label}
        data={optionsOf(field)}
        value={value || null}
        onChange={(next) => setVariable(props, field.key, next ?? "")}
      />
    );
  return (
    <TextInput
      label={label}
      placeholder={field.placeholder}
      value={value}
      onChange={(event) => setVariable(props, field.key, event.currentTarget.value)}
    />
  );
}

/** The fields of the template the agent was made from, with this agent's values. */
export function FieldsPanel(props: PanelProps) {
  const templates = useTemplates();
  const templateId = props.state.draft.templateId;
  if (templateId === null)
    return (
      <Text c="dimmed">
        This agent was not made from a template, so it has no template fields. Its own variables are on the
        Variables panel.
      </Text>
    );
  if (templates.isPending) return <LoadingState label="Loading the template…" />;
  const template = templates.data?.templates.find((item) => item.id === templateId);
  if (!template) return <Text c="dimmed">The template of this agent is no longer available.</Text>;
  if (template.templateFields.length === 0)
    return <Text c="dimmed">The template “{template.name}” has no fields.</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Fields of the template “{template.name}”. Their values replace the {"{key}"} variables of the
        instructions.
      </Text>
      {template.templateFields.map((field) => (
        <FieldInput key={field.key} field={field} props={props} />
      ))}
    </Stack>
  );
}

/** Every `{key}` the instructions and greeting use, with its value. */
export function VariablesPanel(props: PanelProps) {
  const { draft } = props.state;
  const used = templateVariables(draft.agentInstructions, draft.greeting);
  const unused = Object.keys(draft.variables).filter((key) => !used.includes(key));
  if (used.length === 0 && unused.length === 0)
    return (
      <Text c="dimmed">
        The instructions use no variables. Write {"{name}"} in them to add one, then give it a value here.
      </Text>
    );
  return (
    <Stack gap="sm">
      {used.map((key) => (
        // A value may run over lines (questions and answers).
        <Textarea
          key={key}
          label={`{${key}}`}
          autosize
          minRows={1}
          maxRows={10}
          value={draft.variables[key] ?? ""}
          placeholder="No value: the agent leaves out what needs it"
          onChange={(event) => setVariable(props, key, event.currentTarget.value)}
        />
      ))}
      {unused.length > 0 ? (
        <Text size="sm" c="dimmed">
          Values kept but not used by the instructions: {unused.join(", ")}.
        </Text>
      ) : null}
    </Stack>
  );
}
