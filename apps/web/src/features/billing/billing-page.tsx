import { Alert, Badge, Button, Card, Group, NumberInput, Select, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import {
  useAvailablePlans,
  useCurrentPlan,
  useOfferedPlan,
  usePortalLink,
  useSetOfferedPlan,
} from "./api.ts";
import { formatCents, formatDay, PlanGrid, periodDays, type Term, TermSwitch } from "./plan-parts.tsx";
import { UsageCard } from "./usage-card.tsx";

/** The plan the organisation is on, its subscription and premium flag, and the way to change them. */
export function CurrentPlanCard() {
  const current = useCurrentPlan();
  const overlays = useOverlays();
  const portal = usePortalLink();
  const manage = usePermission("canManageBilling");
  if (current.isPending) return <LoadingState label="Loading your plan…" />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => void current.refetch()} />;
  const { productPlan, subscription, premium } = current.data;
  return (
    <Card withBorder padding="md" radius="md" aria-labelledby="current-plan-title">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4" id="current-plan-title">
            Current plan
          </Title>
          <Badge color={premium ? "teal" : "gray"} data-testid="premium-badge">
            {premium ? "Premium on" : "Premium off"}
          </Badge>
        </Group>
        <Text size="xl" fw={700} data-testid="current-plan-name">
          {productPlan?.name ?? "No plan"}
        </Text>
        {subscription ? (
          <Text size="sm" c="dimmed" data-testid="subscription-period">
            {formatCents(subscription.amountCents)} per {subscription.term}, paid by card for{" "}
            {periodDays(subscription.currentPeriodStart, subscription.currentPeriodEnd)}; renews on{" "}
            {formatDay(subscription.currentPeriodEnd)}
            {subscription.provider === "sandbox" ? " (sandbox)" : ""}.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            No subscription: usage beyond what this plan includes is charged to your wallet. Choose a plan for
            premium features.
          </Text>
        )}
        {manage ? (
          <Group gap="xs">
            <Button onClick={() => overlays.open("selectPlan")}>
              {subscription ? "See plans" : "Choose a plan"}
            </Button>
            {subscription ? (
              <Button variant="default" onClick={() => overlays.open("subscription")}>
                Manage subscription
              </Button>
            ) : null}
            <Button variant="subtle" loading={portal.isPending} onClick={() => portal.mutate()}>
              Billing portal
            </Button>
          </Group>
        ) : null}
        <ActionError error={portal.error} />
      </Stack>
    </Card>
  );
}

function OfferBanner() {
  const offered = useOfferedPlan();
  const overlays = useOverlays();
  const plan = offered.data?.productPlan;
  if (!plan) return null;
  return (
    <Alert color="grape" variant="light" title={`Offered to you: ${plan.name}`}>
      <Group justify="space-between">
        <Text size="sm">
          {formatCents(plan.monthCents)} per month or {formatCents(plan.yearCents)} per year.
        </Text>
        <Button size="xs" variant="white" onClick={() => overlays.open("planOffered")}>
          See the offer
        </Button>
      </Group>
    </Alert>
  );
}

/** A partner or reseller: the plan it offers its organisations, at its own prices. */
function OfferEditor() {
  const plans = useAvailablePlans();
  const offered = useOfferedPlan();
  const save = useSetOfferedPlan();
  const overlays = useOverlays();
  const [planId, setPlanId] = useState<string | null>(null);
  const [month, setMonth] = useState<number | string>("");
  const [year, setYear] = useState<number | string>("");
  if (plans.isPending || offered.isPending) return <LoadingState />;
  if (plans.isError) return <ErrorState error={plans.error} onRetry={() => void plans.refetch()} />;
  const current = offered.data?.productPlan ?? null;
  const chosen = planId ?? (current ? String(current.id) : null);
  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Plan offered to your organisations
        </Title>
        <Text size="sm" c="dimmed">
          {current
            ? `Now offered: ${current.name} at ${formatCents(current.monthCents)} per month, ${formatCents(current.yearCents)} per year.`
            : "Nothing offered: your organisations see the catalogue's prices."}
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!chosen) return;
            save.mutate({
              productPlanId: Number(chosen),
              ...(month !== "" ? { monthPrice: Number(month) } : {}),
              ...(year !== "" ? { yearPrice: Number(year) } : {}),
            });
          }}
        >
          <Stack gap="xs">
            <Select
              label="Plan"
              data={plans.data.plans.map((p) => ({ value: String(p.id), label: p.name }))}
              value={chosen}
              onChange={setPlanId}
            />
            <Group grow>
              <NumberInput
                label="Monthly price (USD)"
                min={0}
                decimalScale={2}
                value={month}
                onChange={setMonth}
                placeholder="catalogue's"
              />
              <NumberInput
                label="Yearly price (USD)"
                min={0}
                decimalScale={2}
                value={year}
                onChange={setYear}
                placeholder="catalogue's"
              />
            </Group>
            <Group gap="xs">
              <Button type="submit" loading={save.isPending} disabled={!chosen}>
                Save offer
              </Button>
              <Button
                variant="light"
                disabled={!chosen}
                onClick={() => chosen && overlays.open("editPlan", chosen)}
              >
                Edit prices…
              </Button>
              {current ? (
                <Button variant="default" onClick={() => save.mutate({ productPlanId: null })}>
                  Withdraw offer
                </Button>
              ) : null}
            </Group>
            <ActionError error={save.error} />
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}

function Catalogue() {
  const plans = useAvailablePlans();
  const current = useCurrentPlan();
  const [term, setTerm] = useState<Term>("month");
  if (plans.isPending) return <LoadingState label="Loading plans…" />;
  if (plans.isError) return <ErrorState error={plans.error} onRetry={() => void plans.refetch()} />;
  if (plans.data.plans.length === 0) return <Text c="dimmed">No plans are offered yet.</Text>;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Plans
        </Title>
        <TermSwitch value={term} onChange={setTerm} />
      </Group>
      <PlanGrid
        plans={plans.data.plans}
        term={term}
        currentPlanId={current.data?.productPlan?.id ?? null}
        subscribed={Boolean(current.data?.subscription)}
        offeredPlanId={plans.data.offeredPlanId}
      />
    </Stack>
  );
}

export function BillingPage() {
  const account = useLoadedAccount();
  const offers = account.accountType === "partner" || account.accountType === "reseller";
  return (
    <Stack gap="md" p="md" maw={1100}>
      <Title order={1}>Billing</Title>
      {offers ? (
        <>
          <OfferEditor />
          <Catalogue />
        </>
      ) : (
        <>
          <CurrentPlanCard />
          <UsageCard />
          <OfferBanner />
          <Catalogue />
        </>
      )}
    </Stack>
  );
}
