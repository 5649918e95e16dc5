import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { createPaymentLink } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useCreatePaymentLink, usePaymentLinks, useUpdatePaymentLink } from "./api.ts";
import { formatCents } from "./format.ts";

/** The wallet page's payment links: make one (slug, title, fixed amount or payer chooses), list, disable. */
export function PaymentLinksSection({ canManage }: { canManage: boolean }) {
  const links = usePaymentLinks();
  const create = useCreatePaymentLink();
  const update = useUpdatePaymentLink();
  const [slug, setSlug] = useState("");
  const [title, setTitle] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<Partial<Record<"slug" | "title" | "amount", string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = createPaymentLink.body;
    const parsed = body?.safeParse({ slug, title, amount: amount.trim() });
    if (!parsed?.success) {
      const next: typeof errors = {};
      for (const issue of parsed?.error.issues ?? []) {
        const key = issue.path[0] as keyof typeof errors;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        setSlug("");
        setTitle("");
        setAmount("");
      },
    });
  };

  return (
    <Stack gap="xs" data-testid="payment-links">
      <Title order={2} size="h3">
        Payment links
      </Title>
      <Text size="sm" c="dimmed">
        Anyone with a link can pay you by card, without an account. Payments go to this wallet.
      </Text>
      {canManage ? (
        <Card withBorder padding="md">
          <form onSubmit={submit} noValidate aria-label="New payment link">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label="Slug"
                description="Letters, digits and dashes"
                value={slug}
                onChange={(e) => setSlug(e.currentTarget.value)}
                error={errors.slug}
              />
              <TextInput
                label="Title"
                description="What the payer sees"
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                error={errors.title}
              />
              <TextInput
                label="Amount (USD)"
                description="Empty: the payer chooses"
                leftSection="$"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.currentTarget.value)}
                error={errors.amount}
              />
              <Button type="submit" mt={46} loading={create.isPending}>
                Create link
              </Button>
            </Group>
            <ActionError error={create.error} />
          </form>
        </Card>
      ) : null}
      {links.isPending ? <LoadingState label="Loading payment links…" /> : null}
      {links.isError ? <ErrorState error={links.error} onRetry={() => void links.refetch()} /> : null}
      {links.data && links.data.links.length === 0 ? <EmptyState>No payment links yet.</EmptyState> : null}
      {links.data && links.data.links.length > 0 ? (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Link</Table.Th>
              <Table.Th>Paid</Table.Th>
              <Table.Th>Status</Table.Th>
              {canManage ? <Table.Th /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.data.links.map((link) => (
              <Table.Tr key={link.id} data-testid="payment-link-row">
                <Table.Td>{link.title}</Table.Td>
                <Table.Td>
                  {link.amountCents === null ? "Payer chooses" : formatCents(link.amountCents)}
                </Table.Td>
                <Table.Td>
                  <Anchor href={link.url} target="_blank" rel="noopener" size="sm">
                    {link.slug}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {link.paidCount} · {formatCents(link.paidCents)}
                </Table.Td>
                <Table.Td>
                  <Badge color={link.status === "active" ? "teal" : "gray"} variant="light">
                    {link.status === "active" ? "Active" : "Disabled"}
                  </Badge>
                </Table.Td>
                {canManage ? (
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() =>
                        update.mutate({
                          id: link.id,
                          status: link.status === "active" ? "disabled" : "active",
                        })
                      }
                    >
                      {link.status === "active" ? "Disable" : "Enable"}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      <ActionError error={update.error} />
    </Stack>
  );
}
