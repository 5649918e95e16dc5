import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function KnowledgeBasePage() {
  return (
    <FeaturePlaceholder
      title="Knowledge base"
      description="The documents and pages your agents draw on when they answer will be added, refreshed and removed here."
    />
  );
}
