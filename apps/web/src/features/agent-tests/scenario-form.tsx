import { Button, Checkbox, Group, NumberInput, Select, Stack, Textarea, TextInput } from "@mantine/core";
import { testScenarioFieldsSchema } from "@switchboard/api";
import { useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { useCreateScenario } from "./api.ts";
import { type CheckFields, checksFrom, NO_CHECKS, OUTCOME_OPTIONS } from "./scenario-checks.ts";

/**
 * Adds a scenario: who the caller is, its lines (one a turn; none: it speaks from its description), and what
 * the agent must do.
 */
export function ScenarioForm({ agentId, onDone }: { agentId: number; onDone: () => void }) {
  const create = useCreateScenario(agentId);
  const [name, setName] = useState("");
  const [persona, setPersona] = useState("");
  const [lines, setLines] = useState("");
  const [required, setRequired] = useState(true);
  const [checks, setChecks] = useState<CheckFields>(NO_CHECKS);
  const [problem, setProblem] = useState<string | null>(null);
  const setCheck = (patch: Partial<CheckFields>) => setChecks((current) => ({ ...current, ...patch }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = testScenarioFieldsSchema.safeParse({
      name,
      persona,
      lines: lines
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      checks: checksFrom(checks),
      required,
    });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? "Check the scenario.");
    setProblem(null);
    create.mutate(parsed.data, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} aria-label="New test scenario">
      <Stack gap="xs">
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
        <Textarea
          label="Caller"
          description="Who calls and what they want, in plain words. Without lines below, the caller speaks from this, answering the agent as it goes."
          value={persona}
          onChange={(e) => setPersona(e.currentTarget.value)}
          autosize
          minRows={1}
        />
        <Textarea
          label="What the caller says"
          description="One line a turn: the simulated caller says each after the agent answers. Optional when the caller is described."
          value={lines}
          onChange={(e) => setLines(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Must say"
            value={checks.says}
            onChange={(e) => setCheck({ says: e.currentTarget.value })}
          />
          <TextInput
            label="Must never say"
            value={checks.neverSays}
            onChange={(e) => setCheck({ neverSays: e.currentTarget.value })}
          />
        </Group>
        <Group grow align="flex-start">
          <Select
            label="Must reach"
            data={OUTCOME_OPTIONS}
            value={checks.reaches || null}
            onChange={(value) => setCheck({ reaches: (value ?? "") as CheckFields["reaches"] })}
            clearable
          />
          <NumberInput
            label="First answer within (ms)"
            value={checks.firstAnswerMs}
            onChange={(value) => setCheck({ firstAnswerMs: String(value ?? "") })}
            min={1}
            allowDecimal={false}
          />
        </Group>
        <Checkbox
          label="Required: publishing waits until it passes"
          checked={required}
          onChange={(e) => setRequired(e.currentTarget.checked)}
        />
        {problem ? <ActionError error={new Error(problem)} /> : <ActionError error={create.error} />}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Save scenario
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
