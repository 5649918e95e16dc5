import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function DashboardPage() {
  return (
    <FeaturePlaceholder
      title="Dashboard"
      description="Your dashboard will show the figures you choose for the account in view — minutes saved, calls answered, appointments booked and more — over the last 30 days or a range you pick."
    />
  );
}
