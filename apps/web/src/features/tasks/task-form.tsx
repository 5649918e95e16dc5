import { Button, Group, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, type ReactNode, useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { fromLocalInput, parseVariables, type TaskFormValues } from "./task-form-values.ts";

export type TaskFormOutput = {
  phoneNumber: string;
  name: string;
  email: string;
  timeZone: string;
  message: string;
  scheduledAt: number | null;
  variables: Record<string, string>;
};

/** The person, message, time and variables of one task; `before` renders above (agent, channel). */
export function TaskForm({
  initial,
  before,
  showMessage,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial: TaskFormValues;
  before?: ReactNode;
  showMessage: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: TaskFormOutput) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const field = (key: keyof TaskFormValues) => ({
    value: values[key],
    onChange: (event: { currentTarget: { value: string } }) => {
      const next = event.currentTarget.value;
      setValues((current) => ({ ...current, [key]: next }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseVariables(values.variables);
    if ("error" in parsed) {
      setProblem(parsed.error);
      return;
    }
    setProblem(null);
    onSubmit({
      phoneNumber: values.phoneNumber.trim(),
      name: values.name.trim(),
      email: values.email.trim(),
      timeZone: values.timeZone.trim(),
      message: values.message.trim(),
      scheduledAt: fromLocalInput(values.scheduledAt),
      variables: parsed.variables,
    });
  };

  return (
    <form onSubmit={submit} aria-label={submitLabel}>
      <Stack gap="sm">
        {before}
        <TextInput
          label="Phone number"
          placeholder="+1 503 555 0123"
          required
          autoComplete="off"
          {...field("phoneNumber")}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Name" maxLength={200} {...field("name")} />
          <TextInput label="E-mail" type="email" maxLength={200} {...field("email")} />
          <TextInput
            label="Time zone"
            placeholder="America/New_York"
            description="Calling hours are the person's own."
            maxLength={64}
            {...field("timeZone")}
          />
          <TextInput
            label="Start at"
            type="datetime-local"
            description="Empty: as soon as the limits allow."
            {...field("scheduledAt")}
          />
        </SimpleGrid>
        {showMessage ? (
          <Textarea
            label="Message"
            description="Leave empty and the agent introduces itself: “Hi, this is … from …”. {name} and the variables are filled in."
            maxLength={1600}
            autosize
            minRows={2}
            {...field("message")}
          />
        ) : null}
        <Textarea
          label="Variables"
          description="One a line, as name: value. The agent's instructions and the message use them as {name}; “about” says why the agent reaches out (“calling about …”)."
          placeholder={"appointment: Tuesday 10am\ndoctor: Dr. Lee"}
          autosize
          minRows={2}
          error={problem}
          {...field("variables")}
        />
        <ActionError error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
