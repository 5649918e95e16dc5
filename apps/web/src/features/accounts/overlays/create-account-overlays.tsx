import { Button, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { createAgentAccount, createOrganization, createReseller } from "@switchboard/api";
import type { ComponentProps } from "react";
import { ActionError } from "../../../components/query-state.tsx";
import { useAccountState } from "../../../lib/account-state.ts";
import { bodySchemaOf, useSchemaForm } from "../../../lib/schema-form.ts";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useAccountList, useCreateAgentAccount, useCreateOrganization, useCreateReseller } from "../api.ts";

/** Where invitation links of new owners lead: this host's /app (the server checks it). */
function invitationUrl(): string {
  return `${window.location.origin}/app`;
}

/** What the toast says once an account is made; with an owner's e-mail, that the invitation went out. */
function createdMessage(name: string, ownerEmail: string | undefined): string {
  return ownerEmail ? `${name} created. An invitation was sent to ${ownerEmail}.` : `${name} created.`;
}

/** The optional owner's e-mail of a new organisation or reseller. */
function OwnerEmailInput(props: ComponentProps<typeof TextInput>) {
  return (
    <TextInput
      label="Owner's e-mail"
      description="Optional: they become its owner and receive an invitation that signs them in."
      type="email"
      {...props}
    />
  );
}

function FormButtons({
  close,
  submitting,
  label,
}: {
  close: () => void;
  submitting: boolean;
  label: string;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={close} disabled={submitting}>
        Cancel
      </Button>
      <Button type="submit" loading={submitting}>
        {label}
      </Button>
    </Group>
  );
}

function ResellerChoice({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const resellers = useAccountList("resellers", 0);
  const options = [
    { value: "", label: "None: directly under this partner" },
    ...(resellers.data?.accounts ?? []).map((item) => ({ value: String(item.id), label: item.displayName })),
  ];
  return (
    <NativeSelect
      label="Reseller"
      description={resellers.isError ? "The resellers could not be loaded." : undefined}
      data={options}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      disabled={resellers.isPending}
    />
  );
}

/**
 * `?createOrgAccount`: a new organisation under the reseller in view (or, for a partner, under a reseller
 * of its choice or itself). With an owner's e-mail, they are invited and signed in by the e-mailed link.
 */
export function CreateOrgAccountOverlay({ close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const create = useCreateOrganization();
  const isPartner = view.account.accountType === "partner";
  const form = useSchemaForm(
    bodySchemaOf(createOrganization),
    {
      name: "",
      email: "",
      phoneNumber: "",
      externalAccountId: "",
      externalBillingId: "",
      targetResellerId: "",
    },
    { required: ["name"] },
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const extra: Record<string, unknown> = {};
    if (form.values.email.trim()) extra.redirectUrl = invitationUrl();
    if (view.account.accountType === "reseller") extra.targetResellerId = view.account.id;
    const body = form.parse(extra);
    if (!body) return;
    create.mutate(body, {
      onSuccess: (answer) => {
        toast.success(createdMessage(answer.account.displayName, body.email));
        close();
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A new organization under {view.account.displayName}.
        </Text>
        {isPartner ? (
          <ResellerChoice
            value={form.values.targetResellerId}
            onChange={(value) => form.setValue("targetResellerId", value)}
          />
        ) : null}
        <TextInput label="Organization name" required data-autofocus {...form.field("name")} />
        <OwnerEmailInput {...form.field("email")} />
        <TextInput label="Phone number" type="tel" {...form.field("phoneNumber")} />
        <TextInput label="External account id" {...form.field("externalAccountId")} />
        <TextInput label="External billing id" {...form.field("externalBillingId")} />
        <ActionError error={create.error} />
        <FormButtons close={close} submitting={create.isPending} label="Create organization" />
      </Stack>
    </form>
  );
}

/** `?createResellerAccount`: a new reseller under the partner in view. */
export function CreateResellerAccountOverlay({ close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const create = useCreateReseller();
  const form = useSchemaForm(
    bodySchemaOf(createReseller),
    { name: "", email: "", externalAccountId: "" },
    { required: ["name"] },
  );
  const partnerView = view.account.accountType === "partner";
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = form.parse({
      targetPartnerId: view.account.id,
      ...(form.values.email.trim() ? { redirectUrl: invitationUrl() } : {}),
    });
    if (!body) return;
    create.mutate(body, {
      onSuccess: (answer) => {
        toast.success(createdMessage(answer.account.displayName, body.email));
        close();
      },
    });
  };
  if (!partnerView) return <Text>Resellers are created under a partner: take over the partner first.</Text>;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A new reseller under {view.account.displayName}.
        </Text>
        <TextInput label="Reseller name" required data-autofocus {...form.field("name")} />
        <OwnerEmailInput {...form.field("email")} />
        <TextInput label="External account id" {...form.field("externalAccountId")} />
        <ActionError error={create.error} />
        <FormButtons close={close} submitting={create.isPending} label="Create reseller" />
      </Stack>
    </form>
  );
}

/** `?createAgentAccount`: a new agent account of the organisation in view. */
export function CreateAgentAccountOverlay({ close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const create = useCreateAgentAccount();
  const form = useSchemaForm(
    bodySchemaOf(createAgentAccount),
    {
      name: "",
      accountName: "",
      username: "",
      email: "",
      phoneNumber: "",
      externalAccountId: "",
    },
    { required: ["name"] },
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = form.parse();
    if (!body) return;
    create.mutate(body, {
      onSuccess: (answer) => {
        toast.success(`${answer.account.displayName} created.`);
        close();
      },
    });
  };
  if (view.account.accountType !== "organization")
    return <Text>Agent accounts belong to an organization: take over the organization first.</Text>;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A new agent account of {view.account.displayName}.
        </Text>
        <TextInput label="Agent name" required data-autofocus {...form.field("name")} />
        <TextInput label="Account name" {...form.field("accountName")} />
        <TextInput
          label="Username"
          description="Optional: 3 to 30 lower-case letters, digits and dashes; made from the name otherwise."
          {...form.field("username")}
        />
        <TextInput label="E-mail" type="email" {...form.field("email")} />
        <TextInput label="Phone number" type="tel" {...form.field("phoneNumber")} />
        <TextInput label="External account id" {...form.field("externalAccountId")} />
        <ActionError error={create.error} />
        <FormButtons close={close} submitting={create.isPending} label="Create agent account" />
      </Stack>
    </form>
  );
}
