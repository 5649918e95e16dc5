import { Anchor, Button, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { forgetSessionQueries } from "../../lib/account-state.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { takeSignedOutReason } from "../../lib/logout.ts";
import { safeNextPath } from "../../lib/next-path.ts";
import { useStoredSession } from "../../lib/session.ts";
import { errorMessage } from "../../lib/shell-api.ts";
import type { SignInChannel } from "./api.ts";
import { AuthFrame, CodeStep, ErrorAlert } from "./auth-frame.tsx";

const CHANNEL_LABELS: Record<SignInChannel, { field: string; placeholder: string; type: string }> = {
  email: { field: "E-mail address", placeholder: "you@example.com", type: "email" },
  phone: { field: "Phone number", placeholder: "+1 555 010 0000", type: "tel" },
};

/**
 * The sign-in calls and the API's address schemas (they carry zod): loaded once the visitor starts typing,
 * or on submit, so that the page itself renders on the first load's small bundle (issue #23).
 */
const loadAuthApi = () => import("./api.ts");

/**
 * /signin: by e-mail or phone, request a code, then enter it (submit disabled until it has 6
 * characters). Shows the server's messages; on success keeps the session and goes to `next` or /app.
 */
export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const navigate = useNavigate();
  const mobileApp = useMobileApp();
  const queryClient = useQueryClient();
  const { session } = useStoredSession();
  const [signedOutReason] = useState(() => takeSignedOutReason());
  const [channel, setChannel] = useState<SignInChannel>(params.get("phone") === null ? "email" : "phone");
  const [address, setAddress] = useState(params.get("email") ?? "");
  const [addressError, setAddressError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<{ address: string; message: string } | null>(null);

  const requestCode = useMutation({
    mutationFn: async (value: string) => (await loadAuthApi()).requestSignInCode(channel, value),
    onSuccess: (message, value) =>
      setSentTo({ address: value, message: message ?? `We sent a 6-digit code to ${value}.` }),
  });
  const verify = useMutation({
    mutationFn: async (code: string) => {
      const api = await loadAuthApi();
      const answer = await api.verifySignInCode(channel, sentTo?.address ?? "", code, mobileApp.isMobileApp);
      return { answer, api };
    },
    onSuccess: ({ answer, api }) => {
      forgetSessionQueries(queryClient);
      api.storeSession(answer);
      navigate(next, { replace: true });
    },
  });

  if (session && !session.userData?.temporary && !verify.isSuccess) return <Navigate to={next} replace />;

  const submitAddress = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = (await loadAuthApi()).parseAddress(channel, address);
    if ("error" in parsed) {
      setAddressError(parsed.error);
      return;
    }
    setAddressError(null);
    requestCode.mutate(parsed.value);
  };

  const labels = CHANNEL_LABELS[channel];
  const signUpHref = `/signup${next === "/app" ? "" : `?next=${encodeURIComponent(next)}`}`;

  return (
    <AuthFrame title="Sign in">
      {signedOutReason ? (
        <Text size="sm" c="dimmed">
          You were signed out: {signedOutReason}
        </Text>
      ) : null}
      {sentTo ? (
        <CodeStep
          message={sentTo.message}
          error={verify.isError ? errorMessage(verify.error) : null}
          submitLabel="Sign in"
          submitting={verify.isPending || verify.isSuccess}
          onSubmit={(code) => verify.mutate(code)}
        >
          <Stack gap={4}>
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => requestCode.mutate(sentTo.address)}
              disabled={requestCode.isPending}
            >
              Send a new code
            </Anchor>
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setSentTo(null);
                verify.reset();
                requestCode.reset();
              }}
            >
              Use another {channel === "email" ? "e-mail address" : "phone number"}
            </Anchor>
          </Stack>
          <ErrorAlert message={requestCode.isError ? errorMessage(requestCode.error) : null} />
        </CodeStep>
      ) : (
        <form onSubmit={(event) => void submitAddress(event)} noValidate>
          <Stack gap="sm">
            <SegmentedControl
              fullWidth
              value={channel}
              onChange={(value) => {
                setChannel(value as SignInChannel);
                setAddress("");
                setAddressError(null);
                requestCode.reset();
              }}
              data={[
                { value: "email", label: "E-mail" },
                { value: "phone", label: "Phone" },
              ]}
              aria-label="Sign in with"
            />
            <TextInput
              key={channel}
              label={labels.field}
              type={labels.type}
              placeholder={labels.placeholder}
              autoComplete={channel === "email" ? "email" : "tel"}
              value={address}
              onChange={(event) => {
                void loadAuthApi();
                setAddress(event.currentTarget.value);
              }}
              error={addressError}
              required
              autoFocus
            />
            <ErrorAlert message={requestCode.isError ? errorMessage(requestCode.error) : null} />
            <Button type="submit" loading={requestCode.isPending}>
              Send code
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" c="dimmed">
        New here?{" "}
        <Anchor component={Link} to={signUpHref} size="sm">
          Create an account
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
