import { Button, Card, Stack, Text, Title, useMantineColorScheme } from "@mantine/core";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { PublicPageCard } from "../public-page/public-page-card.tsx";
import { MobileAppCard } from "./mobile-app-card.tsx";
import { ModelSettingsCard } from "./model-settings-card.tsx";
import { RedactionCard } from "./redaction-card.tsx";
import { TimeZoneCard } from "./time-zone-card.tsx";

/** Settings: profile and account, the organisation's model, and the preferences kept in this browser. */
export function SettingsPage() {
  const { clearColorScheme } = useMantineColorScheme();
  const overlays = useOverlays();
  const { view } = useAccountState();
  const showModel = view.account.accountType === "organization" || view.account.accountType === "agent";

  const resetPreferences = async () => {
    const reset = await confirm({
      title: "Reset local preferences?",
      details:
        "The theme and other preferences kept in this browser go back to their defaults. Your account is not changed.",
      confirmText: "Reset",
      confirmColor: "red",
      withCloseButton: true,
      onConfirm: () => {
        clearColorScheme();
      },
    });
    if (reset) toast.success("Local preferences reset.");
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>Settings</Title>
      <Text>Your account details and the settings of the account in view.</Text>
      <Card withBorder padding="lg" maw={520}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Profile and account
          </Title>
          <Text size="sm">
            Your e-mail address, and the name, image, username and links of the account in view.
          </Text>
          <Button variant="light" w="fit-content" onClick={() => overlays.open("settings")}>
            Open profile and account settings
          </Button>
        </Stack>
      </Card>
      <TimeZoneCard />
      {showModel ? <PublicPageCard /> : null}
      {showModel ? <ModelSettingsCard /> : null}
      {view.account.accountType === "organization" ? <RedactionCard /> : null}
      <MobileAppCard />
      <Card withBorder padding="lg" maw={520}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            This browser
          </Title>
          <Text size="sm">Preferences such as the colour theme are kept in this browser only.</Text>
          <Button variant="light" color="red" w="fit-content" onClick={() => void resetPreferences()}>
            Reset local preferences
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}
