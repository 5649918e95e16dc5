import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function BillingPage() {
  return (
    <FeaturePlaceholder
      title="Billing"
      description="Your plan, subscription, usage and invoices will be shown and managed here."
      missing="Plans, subscriptions and invoices are not in Switchboard yet. Nothing is charged meanwhile, and everything that is built works without a plan."
      instead={[
        "Usage is counted already: see it in Usage and reports on the Dashboard.",
        "For premium features (texting from the inbox, phone numbers), ask whoever runs Switchboard for you — your partner or the platform's administrator.",
      ]}
      links={[{ label: "Go to Dashboard", area: "dashboard" }]}
    />
  );
}
