import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function KnowledgeBasePage() {
  return (
    <FeaturePlaceholder
      title="Knowledge base"
      description="The documents and pages your agents draw on when they answer will be added, refreshed and removed here."
      missing="Agents cannot read documents or web pages yet."
      instead={[
        "Put what your agent must know in its instructions in the agent editor: facts, and questions with answers written as “Q: … A: …”.",
      ]}
      links={[{ label: "Go to Agents", area: "agents" }]}
    />
  );
}
