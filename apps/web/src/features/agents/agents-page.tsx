import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function AgentsPage() {
  return (
    <FeaturePlaceholder
      title="Agents"
      description="Here you will create, test and publish the AI agents that answer and place your phone calls and text messages, starting from a template or from scratch."
    />
  );
}
