import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function BillingPage() {
  return (
    <FeaturePlaceholder
      title="Billing"
      description="Your plan, subscription, usage and invoices will be shown and managed here."
    />
  );
}
