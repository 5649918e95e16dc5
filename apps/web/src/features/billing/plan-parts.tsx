import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import type { ProductPlan } from "@switchboard/api";
import { ActionError } from "../../components/query-state.tsx";
import { formatCalendarDay } from "../../lib/time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useSubscribe } from "./api.ts";

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const formatCents = (cents: number) => usdFormat.format(cents / 100);
/**
 * A day of billing (a period's start or end, a renewal): billing periods run over whole UTC days (the
 * server's billing-period.ts), so their days are read in UTC wherever the browser is.
 */
export const formatDay = (ms: number) => formatCalendarDay(ms, { month: "long" });

const shortDay = (ms: number) => formatCalendarDay(ms, { withYear: false });

/** The last day a period ending at `endMs` covers: the day before its end (the renewal's day). */
export const lastDayOf = (endMs: number) => {
  const end = new Date(endMs);
  return Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate()) - 1;
};

/** A billing period as its first and last day ("Nov 27 – Dec 26"): it ends the day before `endMs`. */
export const periodDays = (startMs: number, endMs: number) =>
  `${shortDay(startMs)} – ${shortDay(lastDayOf(endMs))}`;

export type Term = "month" | "year";

export const priceOf = (plan: ProductPlan, term: Term) =>
  term === "year" ? plan.yearCents : plan.monthCents;
export const isFree = (plan: ProductPlan) => plan.monthCents === 0 && plan.yearCents === 0;

const ITEM_LABELS: Record<string, string> = {
  voice: "Call minutes",
  "outbound-message": "Messages sent",
  "inbound-message": "Messages received",
  tokens: "Model tokens",
  number: "Phone numbers",
};
export const itemLabel = (key: string) => ITEM_LABELS[key] ?? key;

/** "0–500: included", "501–5,000: $0.12 per minute", "5,001 and more: ...". */
function tierText(tier: ProductPlan["productItems"][string]["tiers"][number], unit: string) {
  const n = (v: number) => v.toLocaleString("en-US");
  const range =
    tier.quantityMax === undefined
      ? `${n(tier.quantityMin)} and more`
      : `${n(tier.quantityMin)}–${n(tier.quantityMax)}`;
  const price = tier.unitPriceCents === 0 ? "included" : `${formatCents(tier.unitPriceCents)} per ${unit}`;
  return `${range}: ${price}`;
}

export function TermSwitch({ value, onChange }: { value: Term; onChange: (term: Term) => void }) {
  return (
    <SegmentedControl
      aria-label="Billing term"
      value={value}
      onChange={(v) => onChange(v as Term)}
      data={[
        { value: "month", label: "Monthly" },
        { value: "year", label: "Yearly" },
      ]}
    />
  );
}

/** The productItems of a plan with their pricing tiers. */
export function PlanItems({ plan }: { plan: ProductPlan }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th>Pricing</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(plan.productItems).map(([key, item]) => (
            <Table.Tr key={key}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {itemLabel(key)}
                </Text>
                <Text size="xs" c="dimmed">
                  {item.type}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  {item.tiers.map((tier) => (
                    <Text size="sm" key={tier.quantityMin}>
                      {tierText(tier, item.unit)}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One plan as a card: name, price for the term, what it is, details and subscribe. */
export function PlanCard({
  plan,
  term,
  currentPlanId,
  subscribed,
  offered,
}: {
  plan: ProductPlan;
  term: Term;
  currentPlanId: number | null;
  subscribed: boolean;
  offered?: boolean;
}) {
  const overlays = useOverlays();
  const start = useSubscribe();
  const current = plan.id === currentPlanId;
  const price = priceOf(plan, term);
  const list = term === "year" ? plan.listYearCents : plan.listMonthCents;
  return (
    <Card withBorder padding="md" radius="md" data-testid={`plan-${plan.name}`}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4">
            {plan.name}
          </Title>
          <Group gap={4}>
            {offered ? <Badge color="grape">Offered to you</Badge> : null}
            {current ? <Badge color="teal">Current plan</Badge> : null}
          </Group>
        </Group>
        <Text size="xl" fw={700}>
          {isFree(plan) ? "Free" : `${formatCents(price)} / ${term}`}
          {list !== price ? (
            <Text component="span" size="sm" c="dimmed" td="line-through" ml="xs">
              {formatCents(list)}
            </Text>
          ) : null}
        </Text>
        {plan.premium ? (
          <Badge variant="light" w="fit-content">
            Premium
          </Badge>
        ) : null}
        <Text size="sm" c="dimmed" style={{ flex: 1 }}>
          {plan.description}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => overlays.open("planDetails", String(plan.id))}>
            Details
          </Button>
          {!isFree(plan) && !current ? (
            <Button
              size="xs"
              loading={start.isPending}
              disabled={subscribed}
              title={subscribed ? "Cancel the current plan before choosing another." : undefined}
              onClick={() => start.mutate({ productPlanId: plan.id, term })}
            >
              Subscribe to {plan.name}
            </Button>
          ) : null}
        </Group>
        <ActionError error={start.error} />
      </Stack>
    </Card>
  );
}

export function PlanGrid(props: {
  plans: ProductPlan[];
  term: Term;
  currentPlanId: number | null;
  subscribed: boolean;
  offeredPlanId?: number | null;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {props.plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          term={props.term}
          currentPlanId={props.currentPlanId}
          subscribed={props.subscribed}
          offered={plan.id === props.offeredPlanId}
        />
      ))}
    </SimpleGrid>
  );
}
