import { Alert, Box, Button, Stack, Text } from "@mantine/core";
import { createOneTimeAuth } from "@switchboard/api";
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import { renderSVG } from "uqr";
import { ActionError } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { MobileAppCard } from "./mobile-app-card.tsx";

/** The address that signs a phone in once: this page, without the overlay, with a one-time token. */
function phoneLink(oneTimeToken: string): string {
  const url = new URL(window.location.href);
  url.searchParams.delete("mobile");
  url.searchParams.set("oneTimeToken", oneTimeToken);
  return url.toString();
}

function SignInCode({ url, expiresAt }: { url: string; expiresAt: string }) {
  const qr = useMemo(() => renderSVG(url, { border: 2 }), [url]);
  const until = useTimeFormat().format(expiresAt, "time");
  return (
    <Stack gap="xs" align="center">
      <Box
        role="img"
        aria-label="QR code that signs your phone in"
        w={200}
        h={200}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG drawn by uqr from our own address.
        dangerouslySetInnerHTML={{ __html: qr }}
      />
      <Text size="sm" ta="center" data-testid="phone-code-expiry">
        Scan it with your phone's camera before {until}. It works once.
      </Text>
    </Stack>
  );
}

/**
 * `?mobile`: Switchboard on a phone. Inside the native app: this phone's contacts sync and notifications.
 * Elsewhere: a one-time QR code (POST /api/v1/oneTimeAuth, 5 minutes, single use) that opens this page on
 * the phone, signed in, without typing a code there.
 */
export function MobileOverlay(_props: OverlayComponentProps) {
  const mobileApp = useMobileApp();
  const create = useMutation({
    mutationFn: () => apiClient.call(createOneTimeAuth, { body: {} }),
  });
  if (mobileApp.isMobileApp) return <MobileAppCard />;
  return (
    <Stack gap="sm">
      <Text size="sm">
        Switchboard works in your phone's browser and in the mobile app: answer the inbox, follow calls and
        get notifications on the go.
      </Text>
      {create.data ? (
        <SignInCode url={phoneLink(create.data.oneTimeToken)} expiresAt={create.data.expiresAt} />
      ) : (
        <>
          <Alert variant="light" color="yellow">
            The code signs in as you: show it only on a screen nobody else can see.
          </Alert>
          <Button w="fit-content" loading={create.isPending} onClick={() => create.mutate()}>
            Show a code to sign in on your phone
          </Button>
        </>
      )}
      <ActionError error={create.error} />
    </Stack>
  );
}
