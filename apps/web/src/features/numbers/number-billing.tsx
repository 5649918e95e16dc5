import { Badge, Button, Stack, Text } from "@mantine/core";
import type { PhoneNumber } from "@switchboard/api";
import { usePermission } from "../../lib/account-state.ts";
import { formatCalendarDay } from "../../lib/time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";

/** Cents as "$3.00". */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
/** Renewals fall on whole UTC days (the server's renewal date), shown as "Dec 29". */
const day = (ms: number) => formatCalendarDay(ms, { withYear: false });

/**
 * What a number costs a month under the plan ("Included in your plan", "$3.00/mo, renews Dec 29") and a
 * renewal the wallet could not pay: past due, with the amount, the day it is released and what to do.
 */
export function NumberBilling({ number }: { number: PhoneNumber }) {
  const overlays = useOverlays();
  const manage = usePermission("canManageBilling");
  const billing = number.billing;
  if (!billing) return null;
  const { pastDue } = billing;
  if (pastDue) {
    const byPlan = pastDue.amountCents === 0;
    return (
      <Stack gap={4} align="flex-start">
        <Badge size="sm" color="red" variant="light">
          Past due
        </Badge>
        <Text size="sm">
          {byPlan
            ? `Your plan no longer includes this number. It is released on ${day(pastDue.releaseAt)} unless you choose a plan with numbers.`
            : `${dollars(pastDue.amountCents)} due ${day(pastDue.since)} is unpaid: the wallet is short. It is released on ${day(pastDue.releaseAt)} unless paid.`}
        </Text>
        {manage ? (
          <Button size="compact-xs" onClick={() => overlays.open(byPlan ? "selectPlan" : "addFunds")}>
            {byPlan ? "Choose a plan" : "Add funds"}
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            Ask an owner of your organisation: they manage its plan and wallet.
          </Text>
        )}
      </Stack>
    );
  }
  if (billing.monthlyPriceCents === 0) return <Text size="sm">Included in your plan</Text>;
  if (billing.monthlyPriceCents === null)
    return (
      <Text size="sm" c="orange">
        Not in your plan: choose a plan with numbers by {day(billing.renewsAt)} to keep it
      </Text>
    );
  return (
    <Text size="sm">
      {dollars(billing.monthlyPriceCents)}/mo, renews {day(billing.renewsAt)}
    </Text>
  );
}
