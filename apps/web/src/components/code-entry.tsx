import { Button, Stack, TextInput } from "@mantine/core";
import { EMAIL_CODE_LENGTH } from "@switchboard/core";
import { type FormEvent, useState } from "react";
import { isCompleteCode, normaliseCode } from "../lib/code-entry.ts";

/**
 * Entry of a 6-digit code (sign-in, sign-up, e-mail and phone verification). The submit button stays
 * disabled until the code has exactly 6 characters (spec §5).
 */
export function CodeEntry({
  onSubmit,
  submitting,
  submitLabel,
  label = `${EMAIL_CODE_LENGTH}-digit code`,
  autoFocus = true,
}: {
  onSubmit: (code: string) => void;
  submitting: boolean;
  submitLabel: string;
  label?: string;
  autoFocus?: boolean;
}) {
  const [code, setCode] = useState("");
  const complete = isCompleteCode(code);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete && !submitting) onSubmit(code);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={label}
          value={code}
          onChange={(event) => setCode(normaliseCode(event.currentTarget.value))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={EMAIL_CODE_LENGTH}
          placeholder="123456"
          data-autofocus={autoFocus || undefined}
          autoFocus={autoFocus}
          styles={{ input: { letterSpacing: "0.3em", fontVariantNumeric: "tabular-nums" } }}
        />
        <Button type="submit" disabled={!complete} loading={submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
