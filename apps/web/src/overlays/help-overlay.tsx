import { Button, Stack, Text } from "@mantine/core";
import IconBook2 from "@tabler/icons-react/dist/esm/icons/IconBook2.mjs";
import IconInfoCircle from "@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs";
import IconLifebuoy from "@tabler/icons-react/dist/esm/icons/IconLifebuoy.mjs";
import type { OverlayComponentProps } from "./overlay-props.ts";
import { useOverlays } from "./use-overlays.tsx";

/** `?help`: where to find answers — the documentation, the support team, and what Switchboard is. */
export function HelpOverlay({ name }: OverlayComponentProps) {
  const overlays = useOverlays();
  return (
    <Stack gap="md">
      <Text>Find answers in the documentation, or ask our support team.</Text>
      <Stack gap="xs">
        <Button
          variant="light"
          justify="flex-start"
          leftSection={<IconBook2 size={18} />}
          onClick={() => overlays.switch(name, "docsPage")}
        >
          Read the documentation
        </Button>
        <Button
          variant="light"
          justify="flex-start"
          leftSection={<IconLifebuoy size={18} />}
          onClick={() => overlays.switch(name, "form", "get-support")}
        >
          Contact support
        </Button>
        <Button
          variant="subtle"
          justify="flex-start"
          leftSection={<IconInfoCircle size={18} />}
          onClick={() => overlays.switch(name, "info")}
        >
          About Switchboard
        </Button>
      </Stack>
    </Stack>
  );
}
