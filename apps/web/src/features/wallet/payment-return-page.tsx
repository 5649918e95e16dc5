import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { lazy, Suspense } from "react";
import { Link, useSearchParams } from "react-router";
import { ErrorState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { useCheckoutSession } from "./api.ts";
import { formatCents } from "./format.ts";

const SubscriptionReturn = lazy(async () => ({
  default: (await import("../billing/subscription-return.tsx")).SubscriptionReturn,
}));
const SubscriptionCancelled = lazy(async () => ({
  default: (await import("../billing/subscription-return.tsx")).SubscriptionCancelled,
}));

/**
 * The payment return pages (spec §2.2): where the checkout sends the browser back. A subscription's checkout
 * (`?planCheckout=`; `subscription` is an overlay) returns to the billing module's page.
 */
export function PaymentReturnPage({ outcome }: { outcome: "success" | "cancel" }) {
  const [search] = useSearchParams();
  const subscription = search.get("planCheckout");
  if (subscription)
    return (
      <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
        {outcome === "success" ? <SubscriptionReturn checkoutId={subscription} /> : <SubscriptionCancelled />}
      </Suspense>
    );
  return <CardReturnPage outcome={outcome} search={search} />;
}

function CardReturnPage({ outcome, search }: { outcome: "success" | "cancel"; search: URLSearchParams }) {
  const { accountPrefix } = useAppPath();
  const sessionId = outcome === "success" ? search.get("session_id") : null;
  const session = useCheckoutSession(sessionId);
  const walletLink = (
    <Button component={Link} to={`${accountPrefix}/wallet`}>
      Go to the wallet
    </Button>
  );
  if (outcome === "cancel") {
    return (
      <Center mih="60vh" p="md">
        <Stack align="center" gap="sm" maw={460} ta="center">
          <Title order={1}>Payment cancelled</Title>
          <Text c="dimmed">Nothing was charged. You can top up your wallet whenever you like.</Text>
          {walletLink}
        </Stack>
      </Center>
    );
  }
  const status = session.data?.session.status;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>{status === "complete" ? "Payment received" : "Thank you"}</Title>
        {!sessionId ? (
          <Text c="dimmed">Your payment was sent. Its credit shows in the wallet once confirmed.</Text>
        ) : null}
        {session.isError ? <ErrorState error={session.error} onRetry={() => void session.refetch()} /> : null}
        {status === "complete" && session.data ? (
          <Alert color="teal" variant="light" role="status">
            {formatCents(session.data.session.amountCents)} was added to your wallet.
          </Alert>
        ) : null}
        {status === "open" ? (
          <Group gap="xs" role="status">
            <Loader size="xs" aria-hidden />
            <Text size="sm" c="dimmed">
              Waiting for the payment to be confirmed…
            </Text>
          </Group>
        ) : null}
        {status === "expired" ? (
          <Text c="dimmed">This checkout was cancelled; nothing was charged.</Text>
        ) : null}
        {walletLink}
      </Stack>
    </Center>
  );
}
