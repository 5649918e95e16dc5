import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function TasksPage() {
  return (
    <FeaturePlaceholder
      title="Tasks"
      description="Tasks are outbound job lists: upload a list of contacts and an agent calls or texts each of them, and you follow its progress here."
      missing="Switchboard cannot run outbound task lists yet: agents answer, they do not yet call or text a list on their own."
      instead={[
        "Keep the people you want to reach under Contacts, and start a conversation with any of them from the inbox.",
        "Test how your agent would handle the conversation in its test chat.",
      ]}
      links={[
        { label: "Go to Contacts", area: "contacts" },
        { label: "Go to Agents", area: "agents" },
      ]}
    />
  );
}
