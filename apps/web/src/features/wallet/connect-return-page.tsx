import { Alert, Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useConnectedAccount } from "./api.ts";

/**
 * The return pages of the Stripe Connect onboarding (spec §2.2): stripePayoutConnectSuccess and
 * stripePayoutConnectFailure. Either way the account's state is asked again from the server.
 */
export function ConnectReturnPage({ outcome }: { outcome: "success" | "failure" }) {
  const { accountPrefix } = useAppPath();
  const overlays = useOverlays();
  const connected = useConnectedAccount();
  const enabled = connected.data?.payoutsEnabled ?? false;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>
          {enabled
            ? "Bank account connected"
            : outcome === "success"
              ? "Almost there"
              : "Bank account not connected"}
        </Title>
        {connected.isPending ? <LoadingState label="Checking the bank account…" /> : null}
        {connected.isError ? (
          <ErrorState error={connected.error} onRetry={() => void connected.refetch()} />
        ) : null}
        {connected.data ? (
          enabled ? (
            <Alert color="teal" variant="light" role="status">
              You can now withdraw from your wallet to your bank account.
            </Alert>
          ) : (
            <Text c="dimmed">
              {outcome === "success"
                ? "Stripe has not enabled payouts yet. Finish the onboarding to withdraw to your bank."
                : "The onboarding was not finished. You can start it again from the withdraw screen."}
            </Text>
          )
        ) : null}
        {enabled ? (
          <Button onClick={() => overlays.open("withdraw", "stripe")}>Withdraw to the bank</Button>
        ) : null}
        <Button variant="light" component={Link} to={`${accountPrefix}/wallet`}>
          Go to the wallet
        </Button>
      </Stack>
    </Center>
  );
}
