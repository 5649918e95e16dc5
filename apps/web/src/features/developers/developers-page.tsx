import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function DevelopersPage() {
  return (
    <FeaturePlaceholder
      title="Developers"
      description="Webhooks, API access and SIP settings for connecting Switchboard to your own systems will be managed here."
    />
  );
}
