import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function InboxPage() {
  return (
    <FeaturePlaceholder
      title="Inbox"
      description="The inbox will hold your text-message conversations, split into Priority and Junk, with the AI agent switched on or off per conversation."
    />
  );
}
