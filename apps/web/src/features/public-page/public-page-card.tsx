import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import IconArrowDown from "@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs";
import IconArrowUp from "@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { useEffect, useState } from "react";
import { useAccountState } from "../../app/account-state.ts";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { BarChart } from "../dashboard/bar-chart.tsx";
import { publicPageUrl, useLinkStats, useProfileLinks, useSaveProfileLinks } from "./api.ts";

type DraftLink = { key: string; id?: number; title: string; url: string; clicks: number };

let nextKey = 0;
const keyOf = () => `new-${nextKey++}`;

function LinkStats() {
  const [days, setDays] = useState("30");
  const stats = useLinkStats(Number(days));
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Clicks
        </Title>
        <SegmentedControl
          size="xs"
          value={days}
          onChange={setDays}
          data={[
            { value: "7", label: "7 days" },
            { value: "30", label: "30 days" },
            { value: "90", label: "90 days" },
          ]}
          aria-label="Period"
        />
      </Group>
      {stats.isPending ? (
        <LoadingState label="Loading clicks…" />
      ) : stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <>
          <Text size="sm" data-testid="link-clicks-total">
            {stats.data.totalClicks} {stats.data.totalClicks === 1 ? "click" : "clicks"} in the last {days}{" "}
            days
          </Text>
          <BarChart
            label={`Clicks per day, last ${days} days`}
            points={stats.data.series.map((d) => ({ date: d.date, value: d.clicks }))}
            height={80}
          />
        </>
      )}
    </Stack>
  );
}

/** Settings → Public page: the address, sharing, the bio and the ordered links with their clicks. */
export function PublicPageCard() {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const canEdit = view.permissions.canEditOrg;
  const links = useProfileLinks();
  const save = useSaveProfileLinks();
  const [draft, setDraft] = useState<DraftLink[] | null>(null);
  const [bio, setBio] = useState("");
  const [published, setPublished] = useState(true);

  useEffect(() => {
    if (!links.data) return;
    setDraft(links.data.links.map((l) => ({ key: `link-${l.id}`, ...l })));
    setBio(links.data.linksConfig.bio);
    setPublished(links.data.linksConfig.published);
  }, [links.data]);

  const url = publicPageUrl(view.account.username);
  const update = (key: string, patch: Partial<DraftLink>) =>
    setDraft((all) => all?.map((l) => (l.key === key ? { ...l, ...patch } : l)) ?? all);
  const move = (index: number, by: number) =>
    setDraft((all) => {
      if (!all) return all;
      const next = [...all];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
  const submit = () => {
    if (!draft) return;
    save.mutate(
      {
        links: draft.map((l) => ({ ...(l.id ? { id: l.id } : {}), title: l.title, url: l.url })),
        linksConfig: { bio, published },
      },
      { onSuccess: () => toast.success("Public page saved.") },
    );
  };

  return (
    <Card withBorder padding="lg" maw={720}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Public page
        </Title>
        <Text size="sm">
          Your page at{" "}
          <Anchor href={url} target="_blank" rel="noopener">
            {url}
          </Anchor>{" "}
          shows your name, picture, links and your agent's number, and lets visitors chat with your agent.
        </Text>
        <Group gap="xs">
          {canEdit ? (
            <Button variant="light" onClick={() => overlays.open("editSlug", "page")}>
              Change address
            </Button>
          ) : null}
          <Button variant="light" onClick={() => overlays.open("shareProfile")}>
            Share
          </Button>
        </Group>
        {links.isPending ? (
          <LoadingState label="Loading links…" />
        ) : links.isError ? (
          <ErrorState error={links.error} onRetry={() => void links.refetch()} />
        ) : draft ? (
          <Stack gap="sm">
            <Switch
              label="Public: anyone with the link can see the page"
              checked={published}
              disabled={!canEdit}
              onChange={(event) => setPublished(event.currentTarget.checked)}
            />
            <Textarea
              label="Bio"
              description="A sentence or two under your name (at most 280 characters)."
              maxLength={280}
              autosize
              minRows={2}
              value={bio}
              disabled={!canEdit}
              onChange={(event) => setBio(event.currentTarget.value)}
            />
            <Title order={3} size="h5">
              Links
            </Title>
            {draft.length === 0 ? (
              <EmptyState>No links yet. Add the pages your visitors need.</EmptyState>
            ) : null}
            {draft.map((link, index) => (
              <Group key={link.key} gap="xs" align="flex-end" wrap="nowrap" data-testid="profile-link-row">
                <TextInput
                  label={`Link ${index + 1} title`}
                  value={link.title}
                  disabled={!canEdit}
                  onChange={(event) => update(link.key, { title: event.currentTarget.value })}
                  style={{ flex: 1 }}
                />
                <TextInput
                  label={`Link ${index + 1} address`}
                  value={link.url}
                  disabled={!canEdit}
                  placeholder="https://"
                  onChange={(event) => update(link.key, { url: event.currentTarget.value })}
                  style={{ flex: 2 }}
                />
                <Text size="sm" w={80} ta="right" pb={8} aria-label={`Link ${index + 1} clicks`}>
                  {link.clicks} {link.clicks === 1 ? "click" : "clicks"}
                </Text>
                {canEdit ? (
                  <Group gap={2} pb={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move link ${index + 1} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move link ${index + 1} down`}
                      disabled={index === draft.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove link ${index + 1}`}
                      onClick={() => setDraft(draft.filter((l) => l.key !== link.key))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ) : null}
              </Group>
            ))}
            {canEdit ? (
              <Group>
                <Button
                  variant="default"
                  onClick={() => setDraft([...draft, { key: keyOf(), title: "", url: "", clicks: 0 }])}
                >
                  Add link
                </Button>
                <Button onClick={submit} loading={save.isPending}>
                  Save public page
                </Button>
              </Group>
            ) : null}
            <ActionError error={save.error} />
          </Stack>
        ) : null}
        <LinkStats />
      </Stack>
    </Card>
  );
}
