import {
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { REFERRAL_PARAM } from "@switchboard/api";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useClaimRewards, useReferralRewards } from "./api.ts";
import { formatCents, kindLabel } from "./format.ts";

/**
 * The Wallet page's Referrals section: the account's referral link (the sign-up page with `target`), how
 * many organisations signed up through it, the rewards their payments earned, and claiming them into the
 * wallet.
 */
export function ReferralsSection() {
  const times = useTimeFormat();
  const rewards = useReferralRewards();
  const claim = useClaimRewards();
  const canManage = usePermission("canManageBilling");
  const data = rewards.data;
  // The link on the host the user is on (a partner's white-label host keeps its own).
  const link = data
    ? `${window.location.origin}/signup?${REFERRAL_PARAM}=${encodeURIComponent(data.target)}`
    : "";
  return (
    <Stack gap="sm" component="section" aria-labelledby="referrals-title">
      <Group gap="xs">
        <Title order={2} size="h3" id="referrals-title">
          Referrals
        </Title>
        {data ? (
          <Badge variant="light" data-testid="referred-count">
            {data.referredCount} referred
          </Badge>
        ) : null}
      </Group>
      {rewards.isPending ? <LoadingState label="Loading referrals…" /> : null}
      {rewards.isError ? (
        <ErrorState
          title="Referrals could not be loaded"
          error={rewards.error}
          onRetry={() => void rewards.refetch()}
        />
      ) : null}
      {data ? (
        <>
          <Text size="sm" c="dimmed">
            Share your link: when an organisation that signs up through it pays for a plan or tops up its
            wallet, you earn {data.rewardPercent}% of the payment.
          </Text>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput label="Your referral link" value={link} readOnly flex={1} miw={0} />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? "filled" : "light"}
                  color={copied ? "teal" : undefined}
                  onClick={copy}
                >
                  {copied ? "Copied" : "Copy link"}
                </Button>
              )}
            </CopyButton>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Card withBorder padding="md">
              <Text size="sm" c="dimmed">
                Earned
              </Text>
              <Text fw={700} fz={24} data-testid="rewards-earned">
                {formatCents(data.earnedCents)}
              </Text>
            </Card>
            <Card withBorder padding="md">
              <Text size="sm" c="dimmed">
                Claimed
              </Text>
              <Text fw={700} fz={24} data-testid="rewards-claimed">
                {formatCents(data.claimedCents)}
              </Text>
            </Card>
            <Card withBorder padding="md">
              <Text size="sm" c="dimmed">
                Ready to claim
              </Text>
              <Text fw={700} fz={24} data-testid="rewards-claimable">
                {formatCents(data.claimableCents)}
              </Text>
              {canManage ? (
                <Button
                  mt="xs"
                  size="xs"
                  w="fit-content"
                  disabled={data.claimableCents <= 0}
                  loading={claim.isPending}
                  onClick={() =>
                    claim.mutate(undefined, {
                      onSuccess: (answer) =>
                        toast.success(`${formatCents(answer.claimedCents)} was added to your wallet.`),
                    })
                  }
                >
                  Claim rewards
                </Button>
              ) : null}
            </Card>
          </SimpleGrid>
          <ActionError error={claim.error} />
          {claim.isSuccess ? (
            <Text size="sm" c="teal" role="status">
              {formatCents(claim.data.claimedCents)} of rewards was added to your wallet.
            </Text>
          ) : null}
          {data.rewards.length === 0 ? (
            <EmptyState>
              {data.referredCount === 0
                ? "Nobody has signed up through your link yet."
                : "No rewards yet: they are earned when the organisations you referred pay."}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table verticalSpacing="xs" aria-label="Referral rewards">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Organization</Table.Th>
                    <Table.Th>Payment</Table.Th>
                    <Table.Th ta="right">Reward</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rewards.map((reward) => (
                    <Table.Tr key={reward.id} data-testid="referral-reward">
                      <Table.Td>{times.format(reward.createdAt, "date")}</Table.Td>
                      <Table.Td>{reward.referredName}</Table.Td>
                      <Table.Td>
                        {kindLabel(reward.paymentKind)} {formatCents(reward.paymentCents)}
                      </Table.Td>
                      <Table.Td ta="right">{formatCents(reward.rewardCents)}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={reward.claimedAt ? "gray" : "teal"}>
                          {reward.claimedAt ? "Claimed" : "Claimable"}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      ) : null}
    </Stack>
  );
}
