import { Stack, Text, Title } from "@mantine/core";
import { useAccountState } from "../../app/account-state.ts";
import { WalkthroughCard } from "../walkthrough/walkthrough-card.tsx";

export function DashboardPage() {
  const { view } = useAccountState();
  const type = view.account.accountType;
  const showWalkthrough = type === "organization" || type === "agent";
  return (
    <Stack gap="md" maw={880}>
      <Title order={1}>Dashboard</Title>
      {showWalkthrough ? <WalkthroughCard /> : null}
      <Text>
        Your dashboard will show the figures you choose for the account in view — minutes saved, calls
        answered, appointments booked and more — over the last 30 days or a range you pick.
      </Text>
      <Text c="dimmed">The figures are not built yet.</Text>
    </Stack>
  );
}
