import { Anchor, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { BarChart } from "../dashboard/bar-chart.tsx";
import { publicPageUrl, useLinkStats, useProfileLinks } from "./api.ts";

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

/** The page's links as visitors see them, in order, with their clicks (edited in the editPage overlay). */
function LinkSummary() {
  const links = useProfileLinks();
  if (links.isPending) return <LoadingState label="Loading links…" />;
  if (links.isError) return <ErrorState error={links.error} onRetry={() => void links.refetch()} />;
  const { linksConfig } = links.data;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" data-testid="link-page-status">
        {linksConfig.published ? "Public" : "Hidden: only you can see it"}
        {linksConfig.bio ? ` · “${linksConfig.bio}”` : ""}
      </Text>
      <Title order={3} size="h5">
        Links
      </Title>
      {links.data.links.length === 0 ? (
        <EmptyState>No links yet. Add the pages your visitors need with “Edit links”.</EmptyState>
      ) : (
        <Stack gap={4} component="ol" m={0} pl="md">
          {links.data.links.map((link, index) => (
            <Text key={link.id} component="li" size="sm" data-testid="profile-link-summary">
              <b>{link.title}</b>{" "}
              <Anchor href={link.url} target="_blank" rel="noopener" size="sm">
                {link.url}
              </Anchor>{" "}
              ·{" "}
              <Text component="span" size="sm" aria-label={`Link ${index + 1} clicks`}>
                {link.clicks} {link.clicks === 1 ? "click" : "clicks"}
              </Text>
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Settings → Public page: the address, sharing, the page's profile and its links with their clicks. */
export function PublicPageCard() {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const canEdit = view.permissions.canEditOrg;
  const url = publicPageUrl(view.account.username);
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
            <>
              <Button variant="light" onClick={() => overlays.open("editPage")}>
                Edit links
              </Button>
              <Button variant="light" onClick={() => overlays.open("editPageProfile")}>
                Edit profile
              </Button>
              <Button variant="light" onClick={() => overlays.open("editSlug", "page")}>
                Change address
              </Button>
            </>
          ) : null}
          <Button variant="light" onClick={() => overlays.open("shareProfile")}>
            Share
          </Button>
        </Group>
        <LinkSummary />
        <LinkStats />
      </Stack>
    </Card>
  );
}
