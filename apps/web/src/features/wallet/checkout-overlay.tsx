import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAppPath } from "../../lib/account-context.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { CardTopUp } from "./add-funds-overlay.tsx";
import { useCheckoutSession } from "./api.ts";
import { formatCents } from "./format.ts";

/** A dollar amount as the query carries it (`?checkout=50`, `?checkout=12.50`). */
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;

/** The state of one card checkout of the wallet (`?checkout=<session id>`). */
function CheckoutStatus({ sessionId }: { sessionId: string }) {
  const { accountPrefix } = useAppPath();
  const session = useCheckoutSession(sessionId);
  if (session.isPending) return <LoadingState label="Loading the checkout…" />;
  if (session.isError) return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  const { status, amountCents } = session.data.session;
  return (
    <Stack gap="sm">
      {status === "complete" ? (
        <Alert color="teal" variant="light" role="status">
          Paid: {formatCents(amountCents)} was added to your wallet.
        </Alert>
      ) : status === "open" ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">
            Waiting for the card payment of {formatCents(amountCents)} to be confirmed. Nothing is added to
            the wallet until it is.
          </Text>
        </Group>
      ) : (
        <Text role="status">
          This checkout of {formatCents(amountCents)} was cancelled or expired: nothing was charged.
        </Text>
      )}
      <Group gap="xs">
        <Button component={Link} to={`${accountPrefix}/wallet`}>
          Go to the wallet
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * `?checkout`: paying for wallet credit by card (POST /api/v1/checkout/switchboardCredit) — `?checkout=50`
 * starts with $50 — or, given a checkout's id, whether that payment went through.
 */
export function CheckoutOverlay({ value }: OverlayComponentProps) {
  if (value !== "true" && value !== "" && !AMOUNT.test(value)) return <CheckoutStatus sessionId={value} />;
  return (
    <Stack gap="sm">
      <Text size="sm">Add credit to your wallet by card. Calls, numbers and messages are paid from it.</Text>
      <CardTopUp initialAmount={AMOUNT.test(value) ? value : "25"} />
    </Stack>
  );
}
