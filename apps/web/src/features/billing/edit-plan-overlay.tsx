import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { BILLING_MESSAGES, setOfferedPlan } from "@switchboard/api";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useLoadedAccount, usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOfferedPlan, usePlan, useSetOfferedPlan } from "./api.ts";
import { formatCents } from "./plan-parts.tsx";

/** The server's own body schema of PUT /api/v2/product/offeredPlan (defined, so never missing). */
const offerBodySchema = setOfferedPlan.body as NonNullable<typeof setOfferedPlan.body>;

type Errors = Partial<Record<"monthPrice" | "yearPrice", string>>;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * `?editPlan=<plan id>`: a partner or reseller sets the prices at which it offers this plan to the
 * organisations below it (white-label rebilling). Saving makes it the plan they are offered.
 */
export function EditPlanOverlay({ value, close }: OverlayComponentProps) {
  const account = useLoadedAccount();
  const manage = usePermission("canManageBilling");
  const id = Number(value);
  const valid = Number.isInteger(id) && id > 0;
  const plan = usePlan(valid ? id : null);
  const offered = useOfferedPlan();
  if (account.accountType !== "partner" && account.accountType !== "reseller")
    return <Text c="dimmed">Only partners and resellers set the prices of the plans they offer.</Text>;
  if (!manage) return <Text c="dimmed">You may not change the plans this account offers.</Text>;
  if (!valid) return <Text c="dimmed">This plan does not exist.</Text>;
  if (plan.isPending || offered.isPending) return <LoadingState />;
  if (plan.isError) return <ErrorState error={plan.error} onRetry={() => void plan.refetch()} />;
  if (offered.isError) return <ErrorState error={offered.error} onRetry={() => void offered.refetch()} />;
  const p = plan.data.productPlan;
  const current = offered.data.productPlan?.id === p.id ? offered.data.productPlan : null;
  return (
    <PriceForm
      key={p.id}
      planId={p.id}
      name={p.name}
      listMonthCents={p.listMonthCents}
      listYearCents={p.listYearCents}
      monthCents={current?.monthCents ?? p.listMonthCents}
      yearCents={current?.yearCents ?? p.listYearCents}
      offeredOther={offered.data.productPlan && !current ? offered.data.productPlan.name : null}
      onSaved={close}
    />
  );
}

function PriceForm(props: {
  planId: number;
  name: string;
  listMonthCents: number;
  listYearCents: number;
  monthCents: number;
  yearCents: number;
  offeredOther: string | null;
  onSaved: () => void;
}) {
  const save = useSetOfferedPlan();
  const [month, setMonth] = useState(dollars(props.monthCents));
  const [year, setYear] = useState(dollars(props.yearCents));
  const [errors, setErrors] = useState<Errors>({});
  const submit = () => {
    // An empty field is not a price of $0.
    const empty: Errors = {
      ...(month.trim() === "" ? { monthPrice: BILLING_MESSAGES.price } : {}),
      ...(year.trim() === "" ? { yearPrice: BILLING_MESSAGES.price } : {}),
    };
    if (empty.monthPrice || empty.yearPrice) {
      setErrors(empty);
      return;
    }
    const parsed = offerBodySchema.safeParse({
      productPlanId: props.planId,
      monthPrice: month.trim(),
      yearPrice: year.trim(),
    });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === "monthPrice" || key === "yearPrice") && !found[key]) found[key] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(
      {
        productPlanId: props.planId,
        ...(parsed.data.monthPrice !== undefined ? { monthPrice: parsed.data.monthPrice } : {}),
        ...(parsed.data.yearPrice !== undefined ? { yearPrice: parsed.data.yearPrice } : {}),
      },
      {
        onSuccess: () => {
          toast.success(`${props.name} is offered at the new prices.`);
          props.onSaved();
        },
      },
    );
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Title order={3}>{props.name}</Title>
        <Text size="sm" c="dimmed">
          List price {formatCents(props.listMonthCents)} per month, {formatCents(props.listYearCents)} per
          year. Your organisations pay the prices you set here.
        </Text>
        {props.offeredOther ? (
          <Text size="sm">
            You now offer {props.offeredOther}: saving offers {props.name} instead.
          </Text>
        ) : null}
        <Group grow align="flex-start">
          <TextInput
            label="Monthly price (USD)"
            inputMode="decimal"
            value={month}
            error={errors.monthPrice}
            onChange={(event) => setMonth(event.currentTarget.value)}
          />
          <TextInput
            label="Yearly price (USD)"
            inputMode="decimal"
            value={year}
            error={errors.yearPrice}
            onChange={(event) => setYear(event.currentTarget.value)}
          />
        </Group>
        <ActionError error={save.error} />
        <Group gap="xs">
          <Button type="submit" loading={save.isPending}>
            Save prices
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
