import { Alert, Button, Group, Select, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import { isOverlayName } from "../../overlays/overlay-names.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import {
  useAvailablePlans,
  useCancelSubscription,
  useCurrentPlan,
  useOfferedPlan,
  usePlan,
  usePortalLink,
  useSubscribe,
} from "./api.ts";
import {
  formatCents,
  formatDay,
  isFree,
  lastDayOf,
  PlanGrid,
  PlanItems,
  periodDays,
  priceOf,
  type Term,
  TermSwitch,
} from "./plan-parts.tsx";

const PREMIUM_INCLUDES = [
  "Start text conversations from the inbox.",
  "Give your agents their own phone numbers.",
  "More included call minutes, messages and model tokens (see each plan's details).",
];

function PremiumList() {
  return (
    <Stack gap={4} component="ul" pl="md" m={0}>
      {PREMIUM_INCLUDES.map((line) => (
        <Text component="li" size="sm" key={line}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** The plans to choose from (the offered one first), for a term. */
function PlanChooser({ premiumOnly = false }: { premiumOnly?: boolean }) {
  const plans = useAvailablePlans();
  const current = useCurrentPlan();
  const [term, setTerm] = useState<Term>("month");
  if (plans.isPending || current.isPending) return <LoadingState label="Loading plans…" />;
  if (plans.isError) return <ErrorState error={plans.error} onRetry={() => void plans.refetch()} />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => void current.refetch()} />;
  const shown = plans.data.plans.filter((p) => !premiumOnly || p.premium);
  if (shown.length === 0) return <Text c="dimmed">No plans are offered yet.</Text>;
  return (
    <Stack gap="sm">
      <TermSwitch value={term} onChange={setTerm} />
      {current.data.subscription ? (
        <Alert color="blue" variant="light">
          You are on {current.data.productPlan?.name}. Cancel it under Manage subscription before choosing
          another plan.
        </Alert>
      ) : null}
      <PlanGrid
        plans={shown}
        term={term}
        currentPlanId={current.data.productPlan?.id ?? null}
        subscribed={Boolean(current.data.subscription)}
        offeredPlanId={plans.data.offeredPlanId}
      />
      <Text size="xs" c="dimmed">
        You pay on the payment page that opens next; the plan starts once the payment is confirmed.
      </Text>
    </Stack>
  );
}

function OrganisationsOnly() {
  return (
    <Text c="dimmed">
      Plans are chosen by organisations. Open one of your organisations to choose its plan, or set the plan
      you offer them on the Billing page.
    </Text>
  );
}

function useIsOrganisation() {
  const account = useLoadedAccount();
  return account.accountType === "organization" || account.accountType === "agent";
}

function NoBillingAccess() {
  return (
    <Text c="dimmed">
      Only the organisation's owner manages its plan. Ask them to upgrade, or to give you access to billing.
    </Text>
  );
}

/**
 * `?upgrade[=<next overlay>]`: upgrading the organisation to premium, which new conversations and phone
 * numbers need (spec §4.3). The inbox opens it with `selectNumber` as the step after it.
 */
export function UpgradeOverlay({ value }: OverlayComponentProps) {
  const overlays = useOverlays();
  const current = useCurrentPlan();
  const manage = usePermission("canManageBilling");
  const organisation = useIsOrganisation();
  const account = useLoadedAccount();
  const next = value !== "true" && isOverlayName(value) ? value : null;
  if (!organisation) return <OrganisationsOnly />;
  const premium = current.data?.premium ?? account.premium;
  if (premium)
    return (
      <Stack gap="sm">
        <Alert color="teal" variant="light" role="status">
          Your organisation is premium.
        </Alert>
        {next ? <Button onClick={() => overlays.switch("upgrade", next)}>Continue</Button> : null}
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Text>
        Upgrade to a premium plan to text from the inbox and give your agents their own phone numbers.
      </Text>
      <PremiumList />
      {manage ? <PlanChooser premiumOnly /> : <NoBillingAccess />}
    </Stack>
  );
}

/** `?premium`: what premium includes, and whether the organisation has it. */
export function PremiumOverlay() {
  const overlays = useOverlays();
  const current = useCurrentPlan();
  const manage = usePermission("canManageBilling");
  const account = useLoadedAccount();
  const premium = current.data?.premium ?? account.premium;
  return (
    <Stack gap="sm">
      <Text>Premium plans add to everything that works on the Free plan:</Text>
      <PremiumList />
      {current.isError ? <ErrorState error={current.error} onRetry={() => void current.refetch()} /> : null}
      <Alert color={premium ? "teal" : "gray"} variant="light" role="status">
        {premium
          ? `Premium is on${current.data?.productPlan ? ` (${current.data.productPlan.name} plan)` : ""}.`
          : "Premium is off for this organisation."}
      </Alert>
      {!premium && manage ? (
        <Button w="fit-content" onClick={() => overlays.switch("premium", "selectPlan")}>
          Choose a plan
        </Button>
      ) : null}
    </Stack>
  );
}

/** `?selectPlan`: choosing a billing plan. */
export function SelectPlanOverlay() {
  const manage = usePermission("canManageBilling");
  if (!useIsOrganisation()) return <OrganisationsOnly />;
  if (!manage) return <NoBillingAccess />;
  return <PlanChooser />;
}

/** `?planDetails=<plan id>`: a plan's items and pricing tiers, and subscribing to it. */
export function PlanDetailsOverlay({ value }: OverlayComponentProps) {
  const id = Number(value);
  const plan = usePlan(Number.isInteger(id) && id > 0 ? id : null);
  const current = useCurrentPlan();
  const start = useSubscribe();
  const manage = usePermission("canManageBilling");
  const organisation = useIsOrganisation();
  const [term, setTerm] = useState<Term>("month");
  if (!(Number.isInteger(id) && id > 0)) return <Text c="dimmed">This plan does not exist.</Text>;
  if (plan.isPending) return <LoadingState />;
  if (plan.isError) return <ErrorState error={plan.error} onRetry={() => void plan.refetch()} />;
  const p = plan.data.productPlan;
  const isCurrent = current.data?.productPlan?.id === p.id;
  return (
    <Stack gap="sm">
      <Title order={3}>{p.name}</Title>
      <Text size="sm" c="dimmed">
        {p.description}
      </Text>
      {!isFree(p) ? (
        <Group justify="space-between">
          <Text fw={700}>
            {formatCents(priceOf(p, term))} / {term}
          </Text>
          <TermSwitch value={term} onChange={setTerm} />
        </Group>
      ) : null}
      <PlanItems plan={p} />
      {isCurrent ? <Text size="sm">This is your current plan.</Text> : null}
      {organisation && manage && !isFree(p) && !isCurrent ? (
        <Button
          loading={start.isPending}
          disabled={Boolean(current.data?.subscription)}
          onClick={() => start.mutate({ productPlanId: p.id, term })}
        >
          Subscribe to {p.name}
        </Button>
      ) : null}
      <ActionError error={start.error} />
    </Stack>
  );
}

/** `?planOffered`: the plan the partner or reseller above offers this organisation. */
export function PlanOfferedOverlay() {
  const offered = useOfferedPlan();
  const overlays = useOverlays();
  if (offered.isPending) return <LoadingState />;
  if (offered.isError) return <ErrorState error={offered.error} onRetry={() => void offered.refetch()} />;
  const plan = offered.data.productPlan;
  if (!plan)
    return (
      <Text c="dimmed">No plan is offered to this account: every plan is at the catalogue's price.</Text>
    );
  return (
    <Stack gap="sm">
      <Text>
        Offered to you: <b>{plan.name}</b> at {formatCents(plan.monthCents)} per month or{" "}
        {formatCents(plan.yearCents)} per year
        {plan.monthCents !== plan.listMonthCents
          ? ` (list price ${formatCents(plan.listMonthCents)} per month)`
          : ""}
        .
      </Text>
      <PlanItems plan={plan} />
      <Button w="fit-content" onClick={() => overlays.switch("planOffered", "planDetails", String(plan.id))}>
        Subscribe…
      </Button>
    </Stack>
  );
}

const REASONS = [
  "Too expensive",
  "Missing features",
  "Not using it enough",
  "Switching to another product",
  "Other",
];

/** `?subscription`: the organisation's subscription, the billing portal and cancelling. */
export function SubscriptionOverlay() {
  const current = useCurrentPlan();
  const cancel = useCancelSubscription();
  const portal = usePortalLink();
  const manage = usePermission("canManageBilling");
  const [reason, setReason] = useState<string | null>(null);
  const [details, setDetails] = useState("");
  if (current.isPending) return <LoadingState />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => void current.refetch()} />;
  const { subscription, productPlan } = current.data;
  if (cancel.isSuccess)
    return (
      <Alert color="teal" variant="light" role="status">
        Your plan is cancelled. Premium is off and nothing more will be charged.
      </Alert>
    );
  if (!subscription)
    return <Text c="dimmed">No active subscription: this organisation is on the Free plan.</Text>;
  return (
    <Stack gap="sm">
      <Text data-testid="subscription-paid-through">
        <b>{productPlan?.name}</b>: {formatCents(subscription.amountCents)} per {subscription.term}, paid by
        card for {periodDays(subscription.currentPeriodStart, subscription.currentPeriodEnd)}, through{" "}
        {formatDay(lastDayOf(subscription.currentPeriodEnd))}; renews on{" "}
        {formatDay(subscription.currentPeriodEnd)}.
      </Text>
      {manage ? (
        <>
          <Button
            variant="default"
            w="fit-content"
            loading={portal.isPending}
            onClick={() => portal.mutate()}
          >
            Open the billing portal
          </Button>
          <ActionError error={portal.error} />
          <form
            onSubmit={(event) => {
              event.preventDefault();
              cancel.mutate({ reason: reason ?? "", details });
            }}
          >
            <Stack gap="xs">
              <Title order={4}>Cancel plan</Title>
              <Text size="sm" c="dimmed">
                Cancelling ends the plan now: premium turns off at once and the rest of the period is not
                refunded.
              </Text>
              <Select label="Reason" data={REASONS} value={reason} onChange={setReason} clearable />
              <Textarea
                label="Details"
                value={details}
                onChange={(e) => setDetails(e.currentTarget.value)}
                maxLength={2000}
                autosize
                minRows={2}
              />
              <Button type="submit" color="red" w="fit-content" loading={cancel.isPending}>
                Cancel plan
              </Button>
              <ActionError error={cancel.error} />
            </Stack>
          </form>
        </>
      ) : null}
    </Stack>
  );
}
