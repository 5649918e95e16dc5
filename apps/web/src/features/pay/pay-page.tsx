import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Code,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import {
  checkoutCredit,
  fetchPaymentSlug,
  provePendingInvoicePaid,
  requestInvoice,
  TOP_UP_MAX_USD,
  TOP_UP_MIN_USD,
  WALLET_MESSAGES,
} from "@switchboard/api";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { ActionError, ErrorState } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import { formatCents } from "../wallet/format.ts";

/** Dollars typed by the payer: at most two decimals within the top-up range, else null. */
function parseDollars(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "");
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= TOP_UP_MIN_USD && value <= TOP_UP_MAX_USD ? value : null;
}

/**
 * /pay?slug=…: the public page of a payment link (spec: "Pay invoice: slug"), signed in or not. It shows
 * what `fetchPaymentSlug` answers and pays through the card checkout without a token, with the slug.
 * The checkout returns here with `paid` (the checkout id) or without it (cancelled).
 */
export function PayPage() {
  const [search] = useSearchParams();
  const slug = (search.get("slug") ?? "").trim().toLowerCase();
  const paid = search.get("paid");
  const link = useQuery({
    queryKey: ["paymentSlug", slug],
    enabled: slug !== "",
    queryFn: ({ signal }) => apiClient.call(fetchPaymentSlug, { body: { slug }, signal }),
    retry: false,
  });
  const pay = useMutation({
    mutationFn: (amount: number) => {
      const here = `${window.location.origin}/pay?slug=${encodeURIComponent(slug)}`;
      return apiClient.call(checkoutCredit, {
        body: {
          slug,
          amount,
          currency: "usd",
          successUrl: `${here}&paid={CHECKOUT_SESSION_ID}`,
          cancelUrl: here,
        },
      });
    },
    onSuccess: (answer) => window.location.assign(answer.url),
  });
  const lightning = useMutation({
    mutationFn: (amount: number) => apiClient.call(requestInvoice, { body: { slug, amount, unit: "USD" } }),
  });
  const prove = useMutation({
    mutationFn: (input: { preimage: string; invoice: string }) =>
      apiClient.call(provePendingInvoicePaid, { body: { slug, ...input } }),
  });
  const [preimage, setPreimage] = useState("");
  const [amount, setAmount] = useState("");
  const [amountError, setAmountError] = useState<string | null>(null);

  /** The amount to pay in dollars (the link's, or the one typed), or null after showing why not. */
  const chosenDollars = (): number | null => {
    if (!link.data) return null;
    let dollars: number | null;
    if (link.data.amountCents !== null) dollars = link.data.amountCents / 100;
    else {
      dollars = parseDollars(amount);
      if (dollars === null) {
        setAmountError(WALLET_MESSAGES.amount);
        return null;
      }
    }
    setAmountError(null);
    return dollars;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dollars = chosenDollars();
    if (dollars !== null) pay.mutate(dollars);
  };
  const payByLightning = () => {
    const dollars = chosenDollars();
    if (dollars !== null) lightning.mutate(dollars);
  };
  const invoice = lightning.data?.pendingInvoice ?? null;

  return (
    <Center mih="100vh" p="md">
      <Card withBorder padding="xl" maw={440} w="100%">
        <Stack gap="sm">
          {!slug ? <Text>This payment link is incomplete.</Text> : null}
          {link.isPending && slug ? <Loader size="sm" aria-label="Loading" /> : null}
          {link.isError ? <ErrorState error={link.error} /> : null}
          {link.data ? (
            <>
              <Text size="sm" c="dimmed" data-testid="pay-org">
                {link.data.displayName}
              </Text>
              <Title order={1}>{link.data.title}</Title>
              {paid || prove.isSuccess ? (
                <Alert color="teal" variant="light" role="status" title="Payment received">
                  Thank you! Your payment to {link.data.displayName} was received.
                </Alert>
              ) : !link.data.active ? (
                <Alert color="gray" role="status">
                  This payment link is no longer accepting payments.
                </Alert>
              ) : (
                <form onSubmit={submit} noValidate>
                  <Stack gap="sm">
                    {link.data.amountCents !== null ? (
                      <Text fz={32} fw={700} data-testid="pay-amount">
                        {formatCents(link.data.amountCents)}
                      </Text>
                    ) : (
                      <TextInput
                        label="Amount (USD)"
                        leftSection="$"
                        inputMode="decimal"
                        value={amount}
                        onChange={(e) => setAmount(e.currentTarget.value)}
                        error={amountError}
                      />
                    )}
                    <ActionError error={pay.error} />
                    <Button type="submit" loading={pay.isPending}>
                      Pay by card
                    </Button>
                    {invoice ? (
                      <Stack gap="xs" data-testid="pay-invoice">
                        <Text size="sm">
                          Pay this lightning invoice ({invoice.amountSats.toLocaleString("en-US")} sats), then
                          paste the preimage your wallet shows.
                        </Text>
                        <Code block style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
                          {invoice.invoice}
                        </Code>
                        {invoice.sandboxWalletUrl ? (
                          <Anchor href={invoice.sandboxWalletUrl} target="_blank" rel="noopener" size="sm">
                            Pay it in the sandbox lightning wallet
                          </Anchor>
                        ) : null}
                        <TextInput
                          label="Preimage"
                          value={preimage}
                          onChange={(e) => setPreimage(e.currentTarget.value)}
                          styles={{ input: { fontFamily: "monospace" } }}
                        />
                        <ActionError error={prove.error} />
                        <Button
                          variant="light"
                          loading={prove.isPending}
                          onClick={() =>
                            prove.mutate({ preimage: preimage.trim(), invoice: invoice.invoice })
                          }
                        >
                          I paid: confirm
                        </Button>
                      </Stack>
                    ) : (
                      <Button variant="subtle" loading={lightning.isPending} onClick={payByLightning}>
                        Pay with lightning
                      </Button>
                    )}
                    <ActionError error={lightning.error} />
                  </Stack>
                </form>
              )}
            </>
          ) : null}
        </Stack>
      </Card>
    </Center>
  );
}
