import { Anchor, Button, Group, List, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { DOCS_PAGES, docsPageFor } from "./docs-pages.ts";

/**
 * `?docsPage=<slug>`: a page of the in-product documentation; without a known page, the contents. Pages
 * link to each other and to the support form.
 */
export function DocsOverlay({ name, value }: OverlayComponentProps) {
  const overlays = useOverlays();
  const page = docsPageFor(value);
  const open = (slug: string) => overlays.switch(name, "docsPage", slug);

  if (!page)
    return (
      <Stack gap="sm">
        <Text c="dimmed">How to build, test and run your agents.</Text>
        <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: "none" }} aria-label="Documentation">
          {DOCS_PAGES.map((entry) => (
            <li key={entry.slug}>
              <UnstyledButton onClick={() => open(entry.slug)} p="xs" w="100%">
                <Text fw={600}>{entry.title}</Text>
                <Text size="sm" c="dimmed">
                  {entry.summary}
                </Text>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      </Stack>
    );

  return (
    <Stack gap="md">
      <Anchor component="button" type="button" size="sm" onClick={() => open("true")} ta="left">
        All topics
      </Anchor>
      <Title order={2} size="h3">
        {page.title}
      </Title>
      {page.sections.map((section) => (
        <Stack key={section.heading} gap={6}>
          <Title order={3} size="h5">
            {section.heading}
          </Title>
          {section.paragraphs?.map((paragraph) => (
            <Text key={paragraph} size="sm">
              {paragraph}
            </Text>
          ))}
          {section.steps ? (
            <List type="ordered" size="sm" spacing={4}>
              {section.steps.map((step) => (
                <List.Item key={step}>{step}</List.Item>
              ))}
            </List>
          ) : null}
        </Stack>
      ))}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Still stuck?
        </Text>
        <Button variant="light" onClick={() => overlays.switch(name, "form", "get-support")}>
          Contact support
        </Button>
      </Group>
    </Stack>
  );
}
