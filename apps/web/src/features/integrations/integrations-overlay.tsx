import { Alert, Stack, Text } from "@mantine/core";
import { useSearchParams } from "react-router";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { CalendlyCard, GoogleCalendarCard } from "./calendar-cards.tsx";
import { JobNimbusCard } from "./jobnimbus-card.tsx";

/**
 * `?integrations` (all), `?integrations=calendar` or `?integrations=jobnimbus`: connect the account's calendar
 * and tools. Coming back from Google's consent page adds calendarConnected or calendarError to the address.
 */
export function IntegrationsOverlay({ value }: OverlayComponentProps) {
  const [params] = useSearchParams();
  const connected = params.get("calendarConnected");
  const error = params.get("calendarError");
  const showCalendar = value === "true" || value === "calendar";
  const showJobNimbus = value === "true" || value === "jobnimbus";
  return (
    <Stack gap="md">
      {connected === "google" ? (
        <Alert color="teal" variant="light" role="status">
          Google Calendar is connected. Your agent now checks it before offering times and books into it.
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      {showCalendar ? (
        <>
          <Text size="sm" c="dimmed">
            Without a connected calendar, your agent books into your account's own schedule (Schedule). With
            one, it also avoids the times you are busy there and adds each booking to it.
          </Text>
          <GoogleCalendarCard />
          <CalendlyCard />
        </>
      ) : null}
      {showJobNimbus ? <JobNimbusCard /> : null}
      {!showCalendar && !showJobNimbus ? (
        <Text>There is no integration called “{value}”. Open Integrations to see those you can connect.</Text>
      ) : null}
    </Stack>
  );
}
