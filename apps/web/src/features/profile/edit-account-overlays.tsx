import { Stack, TextInput } from "@mantine/core";
import { accountFieldsSchema, updateUsername } from "@switchboard/api";
import type { FormEvent } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { bodySchemaOf, fieldErrors, useSchemaForm } from "../../lib/schema-form.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useSaveAccountFields, useUpdateUsername } from "./api.ts";
import { Buttons, detail, EditGate, useBackToSettings } from "./edit-form-parts.tsx";

/** `?editFullName`: the full name of the account in view (details.fullName). */
export function EditFullNameOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const save = useSaveAccountFields();
  const form = useSchemaForm(accountFieldsSchema, {
    fullName: detail(view.account.details, "fullName") || view.user.fullName || "",
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty name removes it (the schema's rule): send it as typed.
    const fields = form.parse({}, { keepEmpty: true });
    if (!fields) return;
    save.mutate(fields, {
      onSuccess: () => {
        toast.success("Name saved.");
        back();
      },
    });
  };
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Full name" autoComplete="name" data-autofocus {...form.field("fullName")} />
          <ActionError error={save.error} />
          <Buttons onBack={back} submitting={save.isPending} />
        </Stack>
      </form>
    </EditGate>
  );
}

/** `?editUserAccount`: the account fields (name, account name, e-mail, phone, external ids). */
export function EditUserAccountOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const save = useSaveAccountFields();
  const { account } = view;
  const initial = {
    name: account.displayName,
    accountName: detail(account.details, "accountName"),
    email: account.email ?? "",
    phoneNumber: account.phoneNumber ?? "",
    externalAccountId: account.externalAccountId ?? "",
    externalBillingId: account.externalBillingId ?? "",
  };
  const form = useSchemaForm(accountFieldsSchema, initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const values = form.values;
    // Only what changed is sent; a cleared e-mail, phone or id is removed (null).
    const changed: Record<string, unknown> = {};
    for (const key of Object.keys(initial) as (keyof typeof initial)[]) {
      if (values[key] === initial[key]) continue;
      const value = values[key].trim();
      changed[key] = value === "" && key !== "name" && key !== "accountName" ? null : values[key];
    }
    const parsed = accountFieldsSchema.safeParse(changed);
    if (!parsed.success) {
      form.setErrors(fieldErrors(parsed.error, Object.keys(initial) as (keyof typeof initial)[]));
      return;
    }
    if (Object.keys(parsed.data).length === 0) {
      back();
      return;
    }
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast.success("Account saved.");
        back();
      },
    });
  };
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.field("name")} />
          <TextInput label="Account name" {...form.field("accountName")} />
          <TextInput label="E-mail" type="email" {...form.field("email")} />
          <TextInput label="Phone number" type="tel" {...form.field("phoneNumber")} />
          <TextInput label="External account id" {...form.field("externalAccountId")} />
          <TextInput label="External billing id" {...form.field("externalBillingId")} />
          <ActionError error={save.error} />
          <Buttons onBack={back} submitting={save.isPending} />
        </Stack>
      </form>
    </EditGate>
  );
}

/** `?editSlug`: the account's username (unique; 3 to 30 lower-case letters, digits and dashes). */
export function EditSlugOverlay({ name, value, close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const toSettings = useBackToSettings(name);
  // Opened from the public page card (`editSlug=page`): back closes instead of returning to settings.
  const back = value === "page" ? close : toSettings;
  const save = useUpdateUsername();
  const form = useSchemaForm(
    bodySchemaOf(updateUsername),
    { username: view.account.username },
    { required: ["username"] },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.parse();
    if (!body) return;
    save.mutate(body.username, {
      onSuccess: (answer) => {
        toast.success(`Username is now ${answer.account.username}.`);
        back();
      },
    });
  };
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Username"
            description="3 to 30 lower-case letters, digits and dashes. It names your public profile."
            data-autofocus
            {...form.field("username")}
          />
          <ActionError error={save.error} />
          <Buttons onBack={back} submitting={save.isPending} />
        </Stack>
      </form>
    </EditGate>
  );
}
