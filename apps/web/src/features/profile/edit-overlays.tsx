import { Button, FileButton, Group, Image, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import {
  accountFieldsSchema,
  emailSchema,
  PROFILE_IMAGE_MAX_BYTES,
  socialLinksSchema,
  updateUsername,
} from "@switchboard/api";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useAccountState } from "../../app/account-state.ts";
import { CodeEntry } from "../../components/code-entry.tsx";
import { ActionError } from "../../components/query-state.tsx";
import { bodySchemaOf, fieldErrors, useSchemaForm } from "../../lib/schema-form.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/registry.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import {
  useRequestEmailCode,
  useSaveAccountFields,
  useSaveSocialLinks,
  useUpdateUsername,
  useUploadAvatar,
  useValidateEmailCode,
} from "./api.ts";

/** After an edit: back to the settings overlay. */
function useBackToSettings(name: OverlayComponentProps["name"]) {
  const overlays = useOverlays();
  return () => overlays.switch(name, "settings");
}

function Buttons({
  onBack,
  submitting,
  label = "Save",
  disabled,
}: {
  onBack: () => void;
  submitting: boolean;
  label?: string;
  disabled?: boolean;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onBack} disabled={submitting}>
        Back
      </Button>
      <Button type="submit" loading={submitting} disabled={disabled}>
        {label}
      </Button>
    </Group>
  );
}

function EditGate({ children }: { children: ReactNode }) {
  const { view } = useAccountState();
  if (!view.permissions.canEditOrg) return <Text>Editing is not available for the account in view.</Text>;
  return children;
}

function detail(details: Record<string, unknown>, key: string): string {
  const value = details[key];
  return typeof value === "string" ? value : "";
}

/**
 * `?editEmail`: a new e-mail address for the signed-in person: a code is e-mailed to it, then entered
 * (submit disabled until it has 6 characters).
 */
export function EditEmailOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const request = useRequestEmailCode();
  const validate = useValidateEmailCode();
  const [email, setEmail] = useState(view.user.email ?? "");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<{ email: string; message: string } | null>(null);

  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? "Enter a valid e-mail address.");
      return;
    }
    setEmailError(null);
    request.mutate(parsed.data, {
      onSuccess: (answer) =>
        setSentTo({
          email: parsed.data,
          message: answer.message ?? `We sent a 6-digit code to ${parsed.data}.`,
        }),
    });
  };

  if (sentTo) {
    return (
      <Stack gap="sm">
        <Text size="sm" role="status">
          {sentTo.message}
        </Text>
        {validate.isError ? <ActionError error={validate.error} /> : null}
        <CodeEntry
          submitLabel="Verify"
          submitting={validate.isPending}
          onSubmit={(code) =>
            validate.mutate(code, {
              onSuccess: (answer) => {
                toast.success(answer.message ?? "E-mail address verified.");
                back();
              },
            })
          }
        />
        <Group gap="sm">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => request.mutate(sentTo.email)}
            loading={request.isPending}
          >
            Send a new code
          </Button>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setSentTo(null);
              validate.reset();
            }}
          >
            Use another address
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form onSubmit={submitEmail} noValidate>
      <Stack gap="sm">
        <TextInput
          label="E-mail address"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={emailError}
          data-autofocus
        />
        <ActionError error={request.error} />
        <Buttons onBack={back} submitting={request.isPending} label="Send code" />
      </Stack>
    </form>
  );
}

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
export function EditSlugOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
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

const NETWORKS = [
  ["website", "Website"],
  ["facebook", "Facebook"],
  ["instagram", "Instagram"],
  ["linkedin", "LinkedIn"],
  ["x", "X (Twitter)"],
  ["youtube", "YouTube"],
  ["tiktok", "TikTok"],
] as const;

/** `?editSocial`: the account's social links and where they show on its profile. */
export function EditSocialOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const save = useSaveSocialLinks();
  const { account } = view;
  const [links, setLinks] = useState<Record<string, string>>(() => ({
    ...Object.fromEntries(NETWORKS.map(([key]) => [key, ""])),
    ...account.socialLinks,
  }));
  const [position, setPosition] = useState(account.socialLinksPosition ?? "bottom");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const present = Object.fromEntries(Object.entries(links).filter(([, value]) => value.trim() !== ""));
    const parsed = socialLinksSchema.safeParse(present);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === "string" && !next[key]) next[key] = issue.message;
        else if (!next._) next._ = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(
      { socialLinks: parsed.data, socialLinksPosition: position },
      {
        onSuccess: () => {
          toast.success("Social links saved.");
          back();
        },
      },
    );
  };
  const known = new Set<string>(NETWORKS.map(([key]) => key));
  const others = Object.keys(links).filter((key) => !known.has(key));
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {[...NETWORKS, ...others.map((key) => [key, key] as const)].map(([key, label]) => (
            <TextInput
              key={key}
              label={label}
              placeholder={key === "website" ? "https://example.com" : "https://… or @handle"}
              value={links[key] ?? ""}
              error={errors[key]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setLinks((current) => ({ ...current, [key]: value }));
              }}
            />
          ))}
          <NativeSelect
            label="Position on the profile"
            data={[
              { value: "top", label: "Top" },
              { value: "bottom", label: "Bottom" },
            ]}
            value={position}
            onChange={(event) => setPosition(event.currentTarget.value)}
          />
          {errors._ ? (
            <Text size="sm" c="red">
              {errors._}
            </Text>
          ) : null}
          <ActionError error={save.error} />
          <Buttons onBack={back} submitting={save.isPending} />
        </Stack>
      </form>
    </EditGate>
  );
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** Checks a chosen image before upload (the server checks again, by content). */
export function checkAvatarFile(file: { type: string; size: number }): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return "The image must be a PNG, JPEG, WebP or GIF file.";
  if (file.size > PROFILE_IMAGE_MAX_BYTES) return "The image is larger than 2 MB.";
  return null;
}

/** `?editAvatar`: upload a profile image (PNG, JPEG, WebP or GIF, at most 2 MB). */
export function EditAvatarOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const upload = useUploadAvatar();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const current = detail(view.account.details, "image");

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null) => {
    upload.reset();
    if (!chosen) return;
    const error = checkAvatarFile(chosen);
    setProblem(error);
    setFile(error ? null : chosen);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    upload.mutate(file, {
      onSuccess: () => {
        toast.success("Profile image saved.");
        back();
      },
    });
  };
  const shown = preview ?? (current || null);
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {shown ? (
            <Image src={shown} alt="Profile image" h={120} w={120} radius="50%" fit="cover" />
          ) : (
            <Text size="sm" c="dimmed">
              No profile image yet.
            </Text>
          )}
          <Group>
            <FileButton onChange={choose} accept={IMAGE_TYPES.join(",")}>
              {(props) => (
                <Button variant="light" {...props}>
                  Choose an image
                </Button>
              )}
            </FileButton>
            {file ? (
              <Text size="sm" c="dimmed">
                {file.name}
              </Text>
            ) : null}
          </Group>
          {problem ? (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          ) : null}
          {upload.isError ? <ActionError error={upload.error} /> : null}
          <Buttons onBack={back} submitting={upload.isPending} label="Upload" disabled={!file} />
        </Stack>
      </form>
    </EditGate>
  );
}
