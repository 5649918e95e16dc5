import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function WalletPage() {
  return (
    <FeaturePlaceholder
      title="Wallet"
      description="Your prepaid balance will be here: top-ups, withdrawals and the list of transactions."
      missing="Switchboard has no wallet or payments yet, so there is no balance to top up. Nothing is charged meanwhile."
      instead={["Usage is counted already: see it in Usage and reports on the Dashboard."]}
      links={[{ label: "Go to Dashboard", area: "dashboard" }]}
    />
  );
}
