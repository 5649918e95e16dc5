import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function TasksPage() {
  return (
    <FeaturePlaceholder
      title="Tasks"
      description="Tasks are outbound job lists: upload a list of contacts and an agent calls or texts each of them, and you follow its progress here."
    />
  );
}
