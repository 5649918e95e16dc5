import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { forgetSessionQueries, useAccountState } from "../../lib/account-state.ts";
import { checkOneTimeAnswer, HANDOFF_MESSAGES } from "../../lib/handoff.ts";
import { saveSession } from "../../lib/session.ts";
import { errorMessage, exchangeOneTimeToken } from "../../lib/shell-api.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";

type Outcome =
  | { kind: "pending" }
  | { kind: "noToken" }
  | { kind: "failed"; message: string }
  | { kind: "same"; username: string }
  | { kind: "switched"; username: string };

/** A one-time token is single use: each is exchanged once, even when React runs an effect twice. */
const exchanges = new Map<string, Promise<{ token: string; username: string; id: number }>>();

function exchangeOnce(oneTimeToken: string) {
  let pending = exchanges.get(oneTimeToken);
  if (!pending) {
    pending = exchangeOneTimeToken(oneTimeToken).then(checkOneTimeAnswer);
    exchanges.set(oneTimeToken, pending);
  }
  return pending;
}

/**
 * `?legacyLogin=<one-time token>`: a sign-in link of the earlier app (GET /api/v1/oneTimeAuth). It says what
 * happened: signed in as whom, that the link signed in the person already here, or why it could not (spec
 * §8 "Login handoff": no token; a token that is not accepted) and who is still signed in.
 */
export function LegacyLoginOverlay({ value, close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const queryClient = useQueryClient();
  const token = value === "true" ? "" : value.trim();
  // Who was signed in when the link was opened (read once: the link may switch the session).
  const before = useRef({
    id: view.user.id,
    label:
      view.user.email ?? view.user.phoneNumber ?? view.user.fullName ?? view.homeAccount?.username ?? "you",
  });
  const current = before.current.label;
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: "pending" } : { kind: "noToken" });

  useEffect(() => {
    if (!token) return;
    let active = true;
    exchangeOnce(token).then(
      (session) => {
        if (!active) return;
        if (session.id === before.current.id) {
          setOutcome({ kind: "same", username: session.username });
          return;
        }
        forgetSessionQueries(queryClient);
        saveSession({
          token: session.token,
          id: session.id,
          userData: { id: session.id, username: session.username, accountId: null, accountType: null },
        });
        setOutcome({ kind: "switched", username: session.username });
      },
      (error: unknown) => {
        if (active)
          setOutcome({ kind: "failed", message: errorMessage(error, HANDOFF_MESSAGES.couldNotAuthenticate) });
      },
    );
    return () => {
      active = false;
    };
  }, [token, queryClient]);

  if (outcome.kind === "pending")
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text>Signing you in with the link…</Text>
      </Group>
    );
  const done = (
    <Group justify="flex-end">
      <Button onClick={close}>Continue</Button>
    </Group>
  );
  if (outcome.kind === "noToken" || outcome.kind === "failed")
    return (
      <Stack gap="sm">
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={outcome.kind === "noToken" ? HANDOFF_MESSAGES.noToken : outcome.message}
        >
          {outcome.kind === "noToken"
            ? "This sign-in link is incomplete: it carries no token."
            : "The link has expired or was used already: each sign-in link works once, for 5 minutes."}
        </Alert>
        <Text size="sm">
          Nothing changed: you are still signed in as <b>{current}</b>. To sign in as someone else, log out
          and sign in with a code sent to your e-mail address or phone.
        </Text>
        {done}
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Alert color="teal" variant="light" role="status" title={`Signed in as ${outcome.username}`}>
        {outcome.kind === "same"
          ? "The link was for the person already signed in here, so nothing changed."
          : `The link signed you in as ${outcome.username} (before: ${current}).`}
      </Alert>
      <Text size="sm">Sign-in links of the earlier app work once; from now on, sign in with a code.</Text>
      {done}
    </Stack>
  );
}
