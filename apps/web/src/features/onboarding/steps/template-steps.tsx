import {
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import {
  applyFieldPlaceholders,
  fieldKind,
  isFieldSkipped,
  type OnboardingTemplate,
  type TemplateField,
} from "@switchboard/core";
import type { UseQueryResult } from "@tanstack/react-query";
import { useEffect } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { useIntegrationConnected } from "../../integrations/api.ts";
import type { Template } from "../api.ts";
import { humanise } from "../step-info.ts";
import type { OnboardingWizard } from "../use-onboarding.ts";
import { StepLayout } from "./step-layout.tsx";

type TemplatesQuery = Pick<UseQueryResult<Template[]>, "data" | "error" | "isPending" | "refetch">;

/** SELECT_TEMPLATE: the template gallery (GET /api/v2/templates). */
export function SelectTemplateStep({
  wizard,
  templates,
  toOnboarding,
}: {
  wizard: OnboardingWizard;
  templates: TemplatesQuery;
  toOnboarding: (template: Template) => OnboardingTemplate;
}) {
  const back = wizard.canUseFullEditor ? () => wizard.dispatch({ type: "back" }) : undefined;
  const layout = {
    title: "Choose a template",
    description: "Pick the starting point closest to your business. You can change everything later.",
    onBack: back,
  };
  if (templates.isPending)
    return <StepLayout {...layout}>{<LoadingState label="Loading templates…" />}</StepLayout>;
  if (templates.error) {
    return (
      <StepLayout {...layout}>
        <ErrorState
          title="The templates could not be loaded"
          error={templates.error}
          onRetry={() => void templates.refetch()}
        />
      </StepLayout>
    );
  }
  const list = templates.data ?? [];
  if (list.length === 0) {
    return (
      <StepLayout {...layout}>
        <EmptyState
          action={
            wizard.canUseFullEditor ? (
              <Button
                variant="light"
                onClick={() => wizard.dispatch({ type: "selectMethod", method: "BUILD_FROM_SCRATCH" })}
              >
                Build from scratch instead
              </Button>
            ) : undefined
          }
        >
          No templates are available for this account yet.
        </EmptyState>
      </StepLayout>
    );
  }
  return (
    <StepLayout {...layout}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {list.map((template) => {
          const titleId = `onboard-template-${template.id}`;
          const chosen = String(template.id) === wizard.state.templateId;
          const integrations = toOnboarding(template).templateIntegrations ?? [];
          return (
            <Card
              key={template.id}
              withBorder
              padding="lg"
              component="article"
              aria-labelledby={titleId}
              style={chosen ? { borderColor: "var(--mantine-primary-color-filled)" } : undefined}
            >
              <Stack gap="sm" h="100%" justify="space-between">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Title order={3} size="h5" id={titleId}>
                      {template.name}
                    </Title>
                    {chosen ? <Badge variant="light">Chosen</Badge> : null}
                  </Group>
                  {template.description ? (
                    <Text size="sm" c="dimmed">
                      {template.description}
                    </Text>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {template.templateFields.length} question{template.templateFields.length === 1 ? "" : "s"}
                    {integrations.length > 0 ? ` · works with ${integrations.map(humanise).join(", ")}` : ""}
                  </Text>
                </Stack>
                <Button
                  variant={chosen ? "filled" : "light"}
                  onClick={() =>
                    chosen && wizard.state.templateFields.length > 0
                      ? wizard.dispatch({ type: "next" })
                      : wizard.dispatch({ type: "selectTemplate", template: toOnboarding(template) })
                  }
                >
                  {chosen ? "Continue with this template" : "Use this template"}
                </Button>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </StepLayout>
  );
}

function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "string" && value.trim() === "";
}

function inputKind(field: TemplateField): string {
  return String(field.inputType ?? field.type ?? "text")
    .toLowerCase()
    .replace(/[-_\s]/g, "");
}

function optionItems(field: TemplateField) {
  return (field.options ?? []).map((option) =>
    typeof option === "string"
      ? { value: option, label: option }
      : { value: String(option.value), label: option.label ?? String(option.value) },
  );
}

/** One template field's input, by its type or inputType. */
function FieldInput({
  field,
  label,
  onChange,
}: {
  field: TemplateField;
  label: string;
  onChange: (value: unknown) => void;
}) {
  const kind = fieldKind(field);
  const placeholder = field.placeholder;
  const text = typeof field.value === "string" || typeof field.value === "number" ? String(field.value) : "";
  if (kind === "select") {
    return (
      <Select
        label={label}
        data={optionItems(field)}
        value={text || null}
        placeholder={placeholder ?? "Choose one"}
        onChange={(value) => onChange(value ?? "")}
        allowDeselect={false}
        data-autofocus
      />
    );
  }
  if (kind === "multiselect") {
    const values = Array.isArray(field.value)
      ? field.value.map(String)
      : text
        ? text.split(",").map((item) => item.trim())
        : [];
    return (
      <MultiSelect
        label={label}
        data={optionItems(field)}
        value={values}
        placeholder={placeholder ?? "Choose any"}
        onChange={onChange}
        data-autofocus
      />
    );
  }
  const type = inputKind(field);
  if (type === "boolean" || type === "checkbox" || type === "switch" || type === "toggle") {
    return (
      <Switch
        label={label}
        checked={field.value === true || field.value === "true"}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
    );
  }
  if (type === "textarea" || type === "longtext" || type === "paragraph" || type === "multiline") {
    return (
      <Textarea
        label={label}
        value={text}
        placeholder={placeholder}
        autosize
        minRows={3}
        onChange={(event) => onChange(event.currentTarget.value)}
        data-autofocus
      />
    );
  }
  const htmlType =
    type === "integer" || type === "number" || type === "float"
      ? "number"
      : type === "email"
        ? "email"
        : type === "phone" || type === "tel"
          ? "tel"
          : type === "url"
            ? "url"
            : "text";
  return (
    <TextInput
      label={label}
      type={htmlType}
      value={text}
      placeholder={placeholder}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-autofocus
    />
  );
}

/** SETUP_TEMPLATE: the template's fields, one at a time (disabled and pre-filled ones skipped). */
export function SetupTemplateStep({ wizard }: { wizard: OnboardingWizard }) {
  const fields = applyFieldPlaceholders(wizard.state.templateFields);
  const field = fields[wizard.state.fieldIndex];
  const asked = fields.filter((candidate) => !isFieldSkipped(candidate, fields));
  const number = field ? asked.indexOf(field) + 1 : 0;
  const back = () => wizard.dispatch({ type: "back" });
  if (!field) {
    return (
      <StepLayout title="About your business" onBack={back}>
        <EmptyState>This template asks nothing more.</EmptyState>
      </StepLayout>
    );
  }
  const label = field.label ?? humanise(field.key);
  const toggle = ["boolean", "checkbox", "switch", "toggle"].includes(inputKind(field));
  const missing = !toggle && isBlank(field.value);
  return (
    <StepLayout
      title="About your business"
      description={`Question ${Math.max(number, 1)} of ${asked.length}. Your answers fill in the template's instructions.`}
      onBack={back}
      footer={
        <Button disabled={missing} onClick={() => wizard.dispatch({ type: "next" })}>
          Next
        </Button>
      }
    >
      <form
        key={field.key}
        onSubmit={(event) => {
          event.preventDefault();
          if (!missing) wizard.dispatch({ type: "next" });
        }}
      >
        <FieldInput
          field={field}
          label={label}
          onChange={(value) => wizard.dispatch({ type: "setFieldValue", key: field.key, value })}
        />
        {missing ? (
          <Text size="xs" c="dimmed" mt={4}>
            Needed for your agent's instructions.
          </Text>
        ) : null}
      </form>
    </StepLayout>
  );
}

const INTEGRATION_TEXT: Record<string, string> = {
  calendar:
    "Lets your agent check free times and book appointments in your calendar (Google Calendar or Calendly). Until one is connected, bookings go to your account's own schedule.",
  jobnimbus: "Lets your agent pass the leads it takes to JobNimbus, with your team's workflows.",
};

/** SETUP_INTEGRATIONS: the template's integrations, one at a time, each connected for real. */
export function SetupIntegrationsStep({ wizard }: { wizard: OnboardingWizard }) {
  const overlays = useOverlays();
  const integrations = wizard.state.templateIntegrations;
  const name = integrations[wizard.state.integrationIndex];
  const back = () => wizard.dispatch({ type: "back" });
  if (!name) {
    return (
      <StepLayout title="Connect your tools" onBack={back}>
        <EmptyState>This template needs no integrations.</EmptyState>
      </StepLayout>
    );
  }
  return (
    <IntegrationStep
      key={name}
      wizard={wizard}
      name={name}
      openIntegrations={() => overlays.open("integrations", name)}
      onBack={back}
    />
  );
}

function IntegrationStep({
  wizard,
  name,
  openIntegrations,
  onBack,
}: {
  wizard: OnboardingWizard;
  name: string;
  openIntegrations: () => void;
  onBack: () => void;
}) {
  const label = humanise(name);
  const live = useIntegrationConnected(name);
  const connected = live ?? wizard.state.connectedIntegrations[name] === true;
  // The wizard remembers what the server says is connected.
  useEffect(() => {
    if (live !== undefined && live !== (wizard.state.connectedIntegrations[name] === true)) {
      wizard.dispatch({ type: "setIntegrationConnected", integration: name, connected: live });
    }
  }, [live, name, wizard]);
  return (
    <StepLayout
      title={`Connect ${label}`}
      description={`Integration ${wizard.state.integrationIndex + 1} of ${wizard.state.templateIntegrations.length}.`}
      onBack={onBack}
      footer={
        <Button onClick={() => wizard.dispatch({ type: "next" })}>
          {connected ? "Next" : "Skip for now"}
        </Button>
      }
    >
      <Text>
        {INTEGRATION_TEXT[name] ??
          `Your template works with ${label}. Connect it so your agent can pass on what it learns to ${label}.`}
      </Text>
      <Group>
        <Button variant="light" onClick={openIntegrations}>
          {connected ? `Manage ${label}` : `Connect ${label}`}
        </Button>
        {live === undefined ? (
          <Text size="sm" c="dimmed">
            Checking…
          </Text>
        ) : (
          <Badge color={connected ? "teal" : "gray"} role="status">
            {connected ? `${label} is connected` : `${label} is not connected`}
          </Badge>
        )}
      </Group>
    </StepLayout>
  );
}
