import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function WalletPage() {
  return (
    <FeaturePlaceholder
      title="Wallet"
      description="Your prepaid balance will be here: top-ups, withdrawals and the list of transactions."
    />
  );
}
