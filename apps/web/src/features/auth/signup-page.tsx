import { Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { REFERRAL_PARAM, signupEmail } from "@switchboard/api";

/** The server's own sign-up body schema (defined for this route, so never missing). */
const signupBodySchema = signupEmail.body as NonNullable<typeof signupEmail.body>;

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { forgetSessionQueries } from "../../lib/account-state.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { useHostProfile } from "../../lib/host-profile.ts";
import { safeNextPath } from "../../lib/next-path.ts";
import { useStoredSession } from "../../lib/session.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import { requestSignUpCode, type SignUpFields, storeSession, verifySignInCode } from "./api.ts";
import { AuthFrame, CodeStep, ErrorAlert } from "./auth-frame.tsx";

type FieldErrors = Partial<Record<"email" | "name" | "businessName" | "number", string>>;

/** Validates the form with the API's own sign-up schema. */
function parseFields(
  values: Record<keyof FieldErrors, string>,
  accountId: number | undefined,
  target: string | undefined,
) {
  const body = {
    email: values.email,
    ...(values.name.trim() ? { name: values.name } : {}),
    ...(values.businessName.trim() ? { businessName: values.businessName } : {}),
    ...(values.number.trim() ? { number: values.number } : {}),
    ...(accountId ? { accountId } : {}),
    ...(target ? { target } : {}),
  };
  const parsed = signupBodySchema.safeParse(body);
  if (parsed.success) return { fields: parsed.data as SignUpFields };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (typeof key === "string" && key in values && !errors[key as keyof FieldErrors])
      errors[key as keyof FieldErrors] = issue.message;
  }
  return { errors };
}

/**
 * /signup: e-mail (and optionally name, business name and phone number), then the e-mailed 6-digit
 * code creates the account and signs in. An anonymous session kept in this browser is sent as
 * tempUserToken, so what was done in it carries over. `?accountId=` signs up under that partner or
 * reseller, and on a white-label host the host's partner is the default.
 */
export function SignUpPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  // A new owner starts in the onboarding wizard (issue #23 item 11), unless the address names where to go.
  const afterSignUp = params.has("next") ? next : "/app?onboard=true";
  const parentId = Number(params.get("accountId"));
  const host = useHostProfile();
  // On a white-label host, sign-up creates the organisation under that host's partner.
  const accountId =
    Number.isSafeInteger(parentId) && parentId > 0 ? parentId : host.isMainHost ? undefined : host.profileId;
  // A referral link (`?target=<username>`, or the e-mailed invitation's `?ref=<username>`) names who
  // referred this sign-up.
  const target = (params.get(REFERRAL_PARAM) ?? params.get("ref"))?.trim().slice(0, 60) || undefined;
  const navigate = useNavigate();
  const mobileApp = useMobileApp();
  const queryClient = useQueryClient();
  const { session } = useStoredSession();
  const [values, setValues] = useState({
    email: params.get("email") ?? "",
    name: "",
    businessName: "",
    number: "",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);

  const requestCode = useMutation({
    mutationFn: (fields: SignUpFields) => requestSignUpCode(fields),
    onSuccess: (message, fields) =>
      setSent({ email: fields.email, message: message ?? `We sent a 6-digit code to ${fields.email}.` }),
  });
  const signedUp = useRef(false);
  const verify = useMutation({
    mutationFn: (code: string) => verifySignInCode("email", sent?.email ?? "", code, mobileApp.isMobileApp),
    onSuccess: (answer) => {
      // Storing the session renders before the mutation counts as a success: the guard below must not
      // send the new owner elsewhere first.
      signedUp.current = true;
      forgetSessionQueries(queryClient);
      storeSession(answer);
      navigate(afterSignUp, { replace: true });
    },
  });

  if (session && !session.userData?.temporary && !verify.isSuccess && !signedUp.current)
    return <Navigate to={next} replace />;

  const field = (key: keyof FieldErrors) => ({
    value: values[key],
    error: errors[key],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [key]: value }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseFields(values, accountId, target);
    if ("errors" in parsed) {
      setErrors(parsed.errors ?? {});
      return;
    }
    setErrors({});
    requestCode.mutate(parsed.fields);
  };

  const signInHref = `/signin${next === "/app" ? "" : `?next=${encodeURIComponent(next)}`}`;

  return (
    <AuthFrame title="Create your account">
      {sent ? (
        <CodeStep
          message={sent.message}
          error={verify.isError ? errorMessage(verify.error) : null}
          submitLabel="Create account"
          submitting={verify.isPending || verify.isSuccess}
          onSubmit={(code) => verify.mutate(code)}
        >
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setSent(null);
              verify.reset();
            }}
          >
            Change the details
          </Anchor>
        </CodeStep>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="E-mail address"
              type="email"
              autoComplete="email"
              required
              autoFocus
              {...field("email")}
            />
            <TextInput label="Your name" autoComplete="name" {...field("name")} />
            <TextInput label="Business name" autoComplete="organization" {...field("businessName")} />
            <TextInput
              label="Phone number"
              description="Optional"
              type="tel"
              autoComplete="tel"
              {...field("number")}
            />
            <ErrorAlert message={requestCode.isError ? errorMessage(requestCode.error) : null} />
            <Button type="submit" loading={requestCode.isPending}>
              Send code
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" c="dimmed">
        Already have an account?{" "}
        <Anchor component={Link} to={signInHref} size="sm">
          Sign in
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
