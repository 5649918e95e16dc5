import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { emailSchema } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { CodeEntry } from "../../components/code-entry.tsx";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useRequestEmailCode, useValidateEmailCode } from "./api.ts";
import { Buttons, useBackToSettings } from "./edit-form-parts.tsx";

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
