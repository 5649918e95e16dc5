import { Alert, Button, Code, CopyButton, Group, Stack, Text } from "@mantine/core";

/** A secret shown this once (a webhook's signing secret, an API token), with a copy button. */
export function ShownOnce({ title, value, onDone }: { title: string; value: string; onDone: () => void }) {
  return (
    <Alert color="yellow" title={title} role="status">
      <Stack gap="xs">
        <Text size="sm">Copy it now: it is shown only this once and cannot be read again.</Text>
        <Code block data-testid="shown-once-value" style={{ wordBreak: "break-all" }}>
          {value}
        </Code>
        <Group gap="xs">
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? "Copied" : "Copy"}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="subtle" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
