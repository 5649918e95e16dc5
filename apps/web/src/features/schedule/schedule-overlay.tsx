import { Badge, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { type Booking, getSchedule } from "@switchboard/api";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { formatInOwnZone } from "../../lib/time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { overlayAccountId } from "../accounts/account-kinds.ts";
import { useAgentTimeZones } from "../logs/api.ts";

/** Times read in the agent's time zone (where the caller booked), else in this browser's. */
type Formats = ReturnType<typeof formatInOwnZone>;

/** The bookings by day, each on the day of its own agent's zone. */
function byDay(bookings: Booking[], formatsOf: (booking: Booking) => Formats): [string, Booking[]][] {
  const days = new Map<string, Booking[]>();
  for (const booking of [...bookings].sort((a, b) => a.start - b.start)) {
    const day = formatsOf(booking).day;
    days.set(day, [...(days.get(day) ?? []), booking]);
  }
  return [...days.entries()];
}

/** `?schedule` (every agent of the organisation) or `?schedule=<agentId>`: upcoming bookings. */
export function ScheduleOverlay({ value }: OverlayComponentProps) {
  const agentId = overlayAccountId(value);
  const overlays = useOverlays();
  const [accountId, viewingAs] = useAccountKey();
  const schedule = useQuery({
    queryKey: ["schedule", accountId, viewingAs, agentId],
    queryFn: ({ signal }) => apiClient.call(getSchedule, { query: agentId ? { agentId } : {}, signal }),
  });
  // Every booking reads in its own agent's time zone (where the caller booked it): the whole organisation's
  // schedule mixes agents, and none of them need be in this browser's zone.
  const agentIds = useMemo(
    () => [...new Set((schedule.data?.bookings ?? []).map((booking) => booking.agentId))],
    [schedule.data],
  );
  const zones = useAgentTimeZones(agentId ? [agentId] : agentIds);
  const formatsOf = (booking: Booking) => formatInOwnZone(booking.start, zones[booking.agentId]);
  const shownZones = [...new Set((schedule.data?.bookings ?? []).map((b) => formatsOf(b).zoneName))];
  if (schedule.isPending) return <LoadingState label="Loading the schedule…" />;
  if (schedule.isError) return <ErrorState error={schedule.error} onRetry={() => void schedule.refetch()} />;
  if (schedule.data.bookings.length === 0)
    return (
      <EmptyState
        action={
          <Button size="xs" variant="light" onClick={() => overlays.open("integrations", "calendar")}>
            Connect a calendar
          </Button>
        }
      >
        No upcoming bookings. Bookings the agent makes on calls and chats appear here.
      </EmptyState>
    );
  return (
    <Stack gap="md" aria-label="Bookings">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Times in {shownZones.join(", ")}.
        </Text>
        <Button size="xs" variant="subtle" onClick={() => overlays.open("integrations", "calendar")}>
          Calendars
        </Button>
      </Group>
      {byDay(schedule.data.bookings, formatsOf).map(([day, bookings]) => (
        <Stack key={day} gap={4}>
          <Title order={5}>{day}</Title>
          <Table verticalSpacing={4}>
            <Table.Tbody>
              {bookings.map((booking) => (
                <Table.Tr key={booking.id} data-testid="booking">
                  <Table.Td w={150}>
                    {formatsOf(booking).time} – {formatInOwnZone(booking.end, zones[booking.agentId]).time}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <Text size="sm" fw={500}>
                        {booking.name}
                      </Text>
                      {booking.calendar ? (
                        <Badge color="blue" variant="outline" size="sm">
                          {booking.calendar === "google" ? "In Google Calendar" : "In Calendly"}
                        </Badge>
                      ) : null}
                      {booking.status === "cancelled" ? (
                        <Badge color="gray" size="sm">
                          Cancelled
                        </Badge>
                      ) : null}
                    </Group>
                    {booking.notes ? (
                      <Text size="xs" c="dimmed">
                        {booking.notes}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{booking.phoneNumber ?? booking.email ?? ""}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" size="sm">
                      {booking.source === "agent" ? "By the agent" : "Manual"}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}
