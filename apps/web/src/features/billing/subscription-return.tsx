import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { BILLING_MESSAGES } from "@switchboard/api";
import { useEffect } from "react";
import { Link } from "react-router";
import { ErrorState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import { useCurrentPlan, useInvalidateAll, useSubscriptionCheckout } from "./api.ts";

/** The payment return page of a subscription checkout (/app/…/paymentSuccess?planCheckout=<checkout id>). */
export function SubscriptionReturn({ checkoutId }: { checkoutId: string }) {
  const { accountPrefix } = useAppPath();
  const checkout = useSubscriptionCheckout(checkoutId);
  const status = checkout.data?.checkout.status;
  const invalidate = useInvalidateAll();
  const current = useCurrentPlan();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the payment is confirmed
  useEffect(() => {
    if (status === "complete") void invalidate();
  }, [status]);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>{status === "complete" ? "Subscription started" : "Thank you"}</Title>
        {checkout.isError ? (
          <ErrorState error={checkout.error} onRetry={() => void checkout.refetch()} />
        ) : null}
        {status === "complete" ? (
          <Alert color="teal" variant="light" role="status">
            {current.data?.productPlan && current.data.subscription
              ? `You are on the ${current.data.productPlan.name} plan. Premium is ${current.data.premium ? "on" : "off"}.`
              : "Your plan is active."}
          </Alert>
        ) : null}
        {status === "open" || checkout.isPending ? (
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
        {status === "refunded" ? <Text c="dimmed">{BILLING_MESSAGES.refundedElsewhere}</Text> : null}
        <Button component={Link} to={`${accountPrefix}/billing`}>
          Go to Billing
        </Button>
      </Stack>
    </Center>
  );
}

/** The cancel return page of a subscription checkout. */
export function SubscriptionCancelled() {
  const { accountPrefix } = useAppPath();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>Payment cancelled</Title>
        <Text c="dimmed">Nothing was charged and your plan did not change.</Text>
        <Button component={Link} to={`${accountPrefix}/billing`}>
          Go to Billing
        </Button>
      </Stack>
    </Center>
  );
}
