import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function NumbersPage() {
  return (
    <FeaturePlaceholder
      title="Numbers"
      description="Here you will buy phone numbers from the marketplace or bring your own, and assign them to your agents."
      missing="Switchboard cannot buy or connect phone numbers or SIP trunks yet. An agent has a number only when one is assigned to it for you."
      instead={[
        "Try your agents in the test chat (Agents → Test).",
        "Text an agent that has a number from the phone simulator under Developers; the conversation shows in your inbox.",
        "Ask whoever runs Switchboard for you (your partner or the platform's administrator) to assign your agent a number.",
      ]}
      links={[
        { label: "Go to Agents", area: "agents" },
        { label: "Open the phone simulator", area: "developers" },
      ]}
    />
  );
}
