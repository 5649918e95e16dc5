import { Box, Button, CopyButton, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMemo } from "react";
import { renderSVG } from "uqr";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { publicPageUrl } from "./api.ts";

/** `?shareProfile`: the public page's address, its QR code, copy and the device's own share sheet. */
export function ShareProfileOverlay(_props: OverlayComponentProps) {
  const { view } = useAccountState();
  const url = publicPageUrl(view.account.username);
  const qr = useMemo(() => renderSVG(url, { border: 2 }), [url]);
  const canShare = typeof navigator !== "undefined" && typeof navigator.share === "function";
  const share = () => {
    navigator.share({ title: view.account.displayName, url }).catch((error: unknown) => {
      if (error instanceof DOMException && error.name === "AbortError") return;
      toast.error("This device could not share the link.");
    });
  };
  return (
    <Stack gap="md">
      <Text size="sm">
        Anyone with this link sees your public page and can call, text or chat with your agent.
      </Text>
      <TextInput label="Link" value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
      <Box
        role="img"
        aria-label={`QR code of ${url}`}
        w={200}
        h={200}
        mx="auto"
        style={{ background: "#fff", lineHeight: 0 }}
        // uqr renders a plain SVG of squares from the address alone (no user HTML).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is generated, not user content.
        dangerouslySetInnerHTML={{ __html: qr.replace("<svg ", '<svg width="200" height="200" ') }}
      />
      <Group justify="center">
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              onClick={() => {
                copy();
                toast.success("Link copied.");
              }}
            >
              {copied ? "Copied" : "Copy link"}
            </Button>
          )}
        </CopyButton>
        {canShare ? <Button onClick={share}>Share…</Button> : null}
        <Button component="a" href={url} target="_blank" rel="noopener" variant="subtle">
          Open page
        </Button>
      </Group>
    </Stack>
  );
}
