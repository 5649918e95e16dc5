import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function AccountsPage() {
  return <FeaturePlaceholder title="Accounts" description="The accounts below the account in view." />;
}
