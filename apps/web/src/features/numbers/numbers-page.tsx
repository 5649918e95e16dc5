import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function NumbersPage() {
  return (
    <FeaturePlaceholder
      title="Numbers"
      description="Here you will buy phone numbers from the marketplace or bring your own, and assign them to your agents."
    />
  );
}
