import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function LogsPage() {
  return (
    <FeaturePlaceholder
      title="Calls"
      description="Every call and conversation will be listed here with its transcript, collected data and statistics, with filters, chosen columns and export."
    />
  );
}
